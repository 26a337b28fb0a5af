package learn

import (
	"testing"
	"time"
)

// benchIterate measures the training throughput of one heterogeneous
// team: collection and PPO updates of whole iterations, in frames
// (environment steps times batch elements) per second.
func benchIterate(b *testing.B, spec EnvSpec, cfg Config) {
	tm, err := NewTeam(spec.New, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tm.Iterate(); err != nil { // warm up the buffers
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := tm.Iterate(); err != nil {
			b.Fatal(err)
		}
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N*tm.buf.frames)/sec, "frames/s")
	b.ReportMetric(float64(tm.buf.frames), "frames/op")
}

var (
	benchMatrix  = EnvSpec{Name: "matrix", Agents: 4, Tasks: 4, U: "min", T: "max"}
	benchCapture = EnvSpec{Name: "capture", Agents: 2, Tasks: 2, U: "min", T: "max"}
)

// referenceNet is ReferenceConfig's network and optimiser with few frames
// per iteration, so that an iteration takes about a second.
func referenceNet() Config {
	c := ReferenceConfig()
	c.Envs, c.FramesPerIter, c.Epochs, c.Minibatch = 16, 1600, 4, 400
	return c
}

// BenchmarkIterateMatrix: continuous matrix game N = M = 4, defaults.
func BenchmarkIterateMatrix(b *testing.B) { benchIterate(b, benchMatrix, Config{}) }

// BenchmarkIterateMatrixReference: the same with the 2 x 256 networks of
// ReferenceConfig, 1600 frames per iteration, 4 epochs of 400.
func BenchmarkIterateMatrixReference(b *testing.B) {
	c := referenceNet()
	c.Envs = 1600 // one-step episodes
	benchIterate(b, benchMatrix, c)
}

// BenchmarkIterateCapture: Multi-goal-capture N = M = 2, defaults.
func BenchmarkIterateCapture(b *testing.B) { benchIterate(b, benchCapture, Config{}) }

// BenchmarkIterateCaptureReference: Capture with the 2 x 256 networks of
// ReferenceConfig, 16 episodes of 100 steps per iteration.
func BenchmarkIterateCaptureReference(b *testing.B) { benchIterate(b, benchCapture, referenceNet()) }

// BenchmarkIterateCaptureExperiment: Capture with the team of the
// reproduce package's Capture experiment (default network, 16 episodes of
// 100 steps and 10 epochs of minibatches of 400 per iteration).
func BenchmarkIterateCaptureExperiment(b *testing.B) {
	benchIterate(b, benchCapture, Config{Envs: 16, FramesPerIter: 1600, Epochs: 10})
}

// BenchmarkEvaluateTag measures one team's deterministic evaluation on
// 512 episodes of 2v2 Tag, as reproduce.TagLarge's task evaluation plays
// for each team of a run (default network; the policy's weights do not
// change the cost).
func BenchmarkEvaluateTag(b *testing.B) {
	tm, err := NewTeam(EnvSpec{Name: "tag", Agents: 2, Tasks: 2, U: "min", T: "max"}.New, Config{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tm.Evaluate(512, 1); err != nil { // build the evaluation environments
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := tm.Evaluate(512, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*512*100)/time.Since(start).Seconds(), "frames/s")
}

// BenchmarkIterateTagLarge: 2v2 Tag with the team of the reproduce
// package's TagLarge experiment (default network, 160 episodes of 100
// steps and 10 epochs of minibatches of 4,000 per iteration, learning rate
// 1e-3), one heterogeneous team.
func BenchmarkIterateTagLarge(b *testing.B) {
	benchIterate(b, EnvSpec{Name: "tag", Agents: 2, Tasks: 2, U: "min", T: "max"},
		Config{Envs: 160, FramesPerIter: 16000, Epochs: 10, Minibatch: 4000, LR: 1e-3})
}

// BenchmarkIterateTagVMASLarge: 2v2 TagVMAS with TagLarge's team and each
// chaser trained on its own reward, one heterogeneous team.
func BenchmarkIterateTagVMASLarge(b *testing.B) {
	benchIterate(b, EnvSpec{Name: "tag-vmas", Agents: 2, Tasks: 2, U: "min", T: "max"},
		Config{Envs: 160, FramesPerIter: 16000, Epochs: 10, Minibatch: 4000, LR: 1e-3, AgentRewards: true})
}
