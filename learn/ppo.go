package learn

import (
	"fmt"
	"math"
	"time"

	"github.com/hetgain/hetgain/simulate"
)

// IterStats describes one training iteration of a team.
type IterStats struct {
	// Iteration is the number of iterations done, this one included.
	Iteration int
	// Frames is the number of frames collected so far.
	Frames int64
	// Return is the mean undiscounted return of the iteration's episodes
	// (stochastic actions).
	Return float64
	// UpdateStats describes the iteration's PPO update.
	UpdateStats
	// Seconds is the wall time of the iteration (not deterministic).
	Seconds float64
}

// UpdateStats describes a team's PPO update in one iteration, over its
// last epoch of minibatches: the diagnostics PPO users watch.
type UpdateStats struct {
	// Entropy is the mean entropy of the actions' distributions per agent
	// (for continuous actions that of the Gaussian before the squash,
	// summed over the action's coordinates; it falls as the policy stops
	// exploring). ApproxKL is the mean of log π_old − log π_new over the
	// samples, ClipFraction the fraction of samples whose probability
	// ratio was clipped, and ValueLoss the mean squared error of the
	// critic.
	Entropy, ApproxKL, ClipFraction, ValueLoss float64
}

// nanUpdate returns UpdateStats with every value NaN: no update.
func nanUpdate() UpdateStats {
	nan := math.NaN()
	return UpdateStats{Entropy: nan, ApproxKL: nan, ClipFraction: nan, ValueLoss: nan}
}

// updateWork holds the scratch of an update.
type updateWork struct {
	actorWorks  []*mlpWork
	criticWorks []*mlpWork
	in, dOut    []float64
	probs       []float64
	perm        []int
	evalEnv     simulate.Env
	newEnv      EnvMaker
}

// Iterate collects one iteration of rollouts with the current policies,
// then runs Epochs of PPO minibatch updates on them.
func (t *Team) Iterate() (IterStats, error) {
	start := time.Now()
	if err := t.collect(); err != nil {
		return IterStats{}, err
	}
	t.computeValues()
	t.computeAdvantages()
	st, err := t.update()
	if err != nil {
		return st, err
	}
	t.iter++
	t.frames += int64(t.buf.frames)
	st.Iteration, st.Frames = t.iter, t.frames
	st.Return = mean(t.buf.epReturn)
	st.Seconds = time.Since(start).Seconds()
	return st, nil
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// criticRows returns, for critic c, the rows of frames idx it evaluates:
// their input rows (in actorIn or criticIn) and the value rows of its
// outputs, row by row (criticOutputs per input row).
func (t *Team) criticRows(c int, idx []int, in, vrow []int) ([]int, []int) {
	in, vrow = in[:0], vrow[:0]
	for _, f := range idx {
		if t.cfg.Critic == Centralised {
			in = append(in, f)
			for j := 0; j < t.vRows(); j++ {
				vrow = append(vrow, f*t.vRows()+j)
			}
			continue
		}
		for _, i := range t.agentsOf(c) {
			in, vrow = append(in, f*t.n+i), append(vrow, f*t.n+i)
		}
	}
	return in, vrow
}

// criticInput returns the input matrix and width of the critics.
func (t *Team) criticInput() []float64 {
	if t.cfg.Critic == Centralised {
		return t.buf.criticIn
	}
	return t.buf.actorIn
}

// computeValues evaluates the critics on every frame of the buffer.
func (t *Team) computeValues() {
	t.ensureUpdateWork()
	const chunk = 4096
	all := make([]int, 0, chunk)
	var in, vrow []int
	for f0 := 0; f0 < t.buf.frames; f0 += chunk {
		all = all[:0]
		for f := f0; f < t.buf.frames && f < f0+chunk; f++ {
			all = append(all, f)
		}
		for c := range t.critics {
			in, vrow = t.criticRows(c, all, in, vrow)
			t.upd.in = gatherRows(t.upd.in, t.criticInput(), t.cInDim, len(in), func(q int) int { return in[q] })
			out := t.critics[c].forward(t.upd.criticWorks[c], t.upd.in, len(in))
			for q, r := range vrow {
				t.buf.value[r] = out[q]
			}
		}
	}
}

// computeAdvantages runs generalised advantage estimation backwards over
// each episode; the last step of an episode is terminal.
func (t *Team) computeAdvantages() {
	b, B, vr, rw := &t.buf, t.cfg.Envs, t.vRows(), t.rewardWidth()
	g, gl := t.cfg.Gamma, t.cfg.Gamma*t.cfg.Lambda
	for ep := 0; ep < len(b.epReturn)/B; ep++ {
		first := ep * b.length * B
		for k := 0; k < B; k++ {
			for j := 0; j < vr; j++ {
				next, adv := 0.0, 0.0
				for s := b.length - 1; s >= 0; s-- {
					f := first + s*B + k
					v := b.value[f*vr+j]
					adv = b.reward[f*rw+j%rw] + g*next - v + gl*adv
					b.adv[f*vr+j], b.target[f*vr+j] = adv, adv+v
					next = v
				}
			}
		}
	}
}

func (t *Team) ensureUpdateWork() {
	if t.upd.actorWorks != nil {
		return
	}
	for range t.actors {
		t.upd.actorWorks = append(t.upd.actorWorks, &mlpWork{})
	}
	for range t.critics {
		t.upd.criticWorks = append(t.upd.criticWorks, &mlpWork{})
	}
}

// update runs the PPO epochs over the buffer.
func (t *Team) update() (IterStats, error) {
	F := t.buf.frames
	if len(t.upd.perm) != F {
		t.upd.perm = make([]int, F)
	}
	for f := range t.upd.perm {
		t.upd.perm[f] = f
	}
	r := newRNG(t.cfg.Seed, streamShuffle, uint64(t.iter))
	var st IterStats
	for epoch := 0; epoch < t.cfg.Epochs; epoch++ {
		r.perm(t.upd.perm)
		var acc lossStats
		for lo := 0; lo < F; lo += t.cfg.Minibatch {
			idx := t.upd.perm[lo:minInt(F, lo+t.cfg.Minibatch)]
			if err := t.actorStep(idx, &acc); err != nil {
				return st, err
			}
			if err := t.criticStep(idx, &acc); err != nil {
				return st, err
			}
		}
		st.Entropy, st.ClipFraction, st.ApproxKL, st.ValueLoss = acc.means()
	}
	return st, nil
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// lossStats accumulates diagnostics over an epoch.
type lossStats struct {
	samples, valueRows      float64
	entropy, clipped, kl, v float64
}

func (s lossStats) means() (entropy, clip, kl, value float64) {
	return s.entropy / s.samples, s.clipped / s.samples, s.kl / s.samples, s.v / s.valueRows
}

// advantageScale returns the mean and inverse standard deviation used to
// normalise the advantages of frames idx (0 and 1 with RawAdvantage).
func (t *Team) advantageScale(idx []int) (float64, float64) {
	if t.cfg.RawAdvantage {
		return 0, 1
	}
	vr := t.vRows()
	s, s2, n := 0.0, 0.0, 0.0
	for _, f := range idx {
		for j := 0; j < vr; j++ {
			a := t.buf.adv[f*vr+j]
			s, s2, n = s+a, s2+a*a, n+1
		}
	}
	m := s / n
	v := math.Max(0, s2/n-m*m)
	return m, 1 / (math.Sqrt(v) + 1e-8)
}

// actorStep takes one gradient step of the clipped surrogate objective
// (minus the entropy bonus), averaged over the agents of frames idx.
func (t *Team) actorStep(idx []int, acc *lossStats) error {
	t.actorGradient(idx, acc)
	return t.step(t.actorOpt, t.actorParams, t.actorGrad, "actor")
}

// actorGradient writes into t.actorGrad the gradient of actorStep's loss
// on frames idx with respect to t.actorParams (log standard deviations
// included), without clipping it or stepping.
func (t *Team) actorGradient(idx []int, acc *lossStats) {
	for k := range t.actorGrad {
		t.actorGrad[k] = 0
	}
	am, ainv := t.advantageScale(idx)
	scale := 1 / float64(len(idx)*t.n)
	for a := range t.actors {
		agents := t.agentsOf(a)
		rows := len(idx) * len(agents)
		t.upd.in = gatherRows(t.upd.in, t.buf.actorIn, t.inDim, rows, func(q int) int { return idx[q/len(agents)]*t.n + agents[q%len(agents)] })
		out := t.actors[a].forward(t.upd.actorWorks[a], t.upd.in, rows)
		if cap(t.upd.dOut) < rows*t.outDim {
			t.upd.dOut = make([]float64, rows*t.outDim)
		}
		dOut := t.upd.dOut[:rows*t.outDim]
		off := t.actorOffsets[a]
		np := t.actors[a].numParams()
		var dLogStd []float64
		if !t.space.Discrete {
			dLogStd = t.actorGrad[off+np : off+np+t.outDim]
		}
		for q := 0; q < rows; q++ {
			f, i := idx[q/len(agents)], agents[q%len(agents)]
			row := f*t.n + i
			adv := (t.buf.adv[f*t.vRows()+minInt(i, t.vRows()-1)] - am) * ainv
			t.sampleGrad(a, out[q*t.outDim:(q+1)*t.outDim], t.buf.raw[row*t.rawW():(row+1)*t.rawW()],
				t.buf.logp[row], adv, scale, dOut[q*t.outDim:(q+1)*t.outDim], dLogStd, acc)
		}
		t.actors[a].backward(t.upd.actorWorks[a], dOut, t.actorGrad[off:off+np])
	}
}

// sampleGrad adds one sample's loss gradient: it writes the gradient with
// respect to the actor's output into dOut and adds that with respect to
// the log standard deviations into dLogStd.
func (t *Team) sampleGrad(a int, out, raw []float64, logpOld, adv, scale float64, dOut, dLogStd []float64, acc *lossStats) {
	logp, ent := 0.0, 0.0
	if t.space.Discrete {
		if cap(t.upd.probs) < t.outDim {
			t.upd.probs = make([]float64, t.outDim)
		}
		p := t.upd.probs[:t.outDim]
		ent = categoricalEntropy(p, out)
		c := int(raw[0])
		logp = categoricalLogProb(out, c)
		coef := t.surrogateCoef(logp, logpOld, adv, acc) * scale
		for k := range dOut {
			ind := 0.0
			if k == c {
				ind = 1
			}
			dOut[k] = coef * (ind - p[k])
			if t.cfg.EntropyCoef > 0 && p[k] > 0 {
				dOut[k] += t.cfg.EntropyCoef * scale * p[k] * (math.Log(p[k]) + ent)
			}
		}
	} else {
		ls := t.logStd[a]
		for c := range out {
			s := clampLogStd(ls[c])
			logp += gaussLogProb(raw[c], out[c], s)
			ent += gaussEntropy(s)
		}
		coef := t.surrogateCoef(logp, logpOld, adv, acc) * scale
		for c := range out {
			s := clampLogStd(ls[c])
			dMu, dLs := gaussLogProbGrad(raw[c], out[c], s)
			dOut[c] = coef * dMu
			if s == ls[c] {
				dLogStd[c] += coef*dLs - t.cfg.EntropyCoef*scale
			}
		}
	}
	acc.entropy += ent
	acc.kl += logpOld - logp
	acc.samples++
}

// surrogateCoef returns d(loss)/d(log π_new) of the clipped surrogate
// −min(ρA, clip(ρ, 1−ε, 1+ε)A) with ρ = π_new/π_old: −ρA where the
// unclipped term is the minimum, 0 where the clipped one is.
func (t *Team) surrogateCoef(logp, logpOld, adv float64, acc *lossStats) float64 {
	ratio := math.Exp(logp - logpOld)
	eps := t.cfg.Clip
	if adv >= 0 && ratio > 1+eps || adv < 0 && ratio < 1-eps {
		acc.clipped++
		return 0
	}
	return -ratio * adv
}

// criticStep takes one gradient step of the mean squared error
// (V − target)²/2 over the value rows of frames idx.
func (t *Team) criticStep(idx []int, acc *lossStats) error {
	t.criticGradient(idx, acc)
	return t.step(t.criticOpt, t.criticParams, t.criticGrad, "critic")
}

// criticGradient writes into t.criticGrad the gradient of criticStep's
// loss on frames idx with respect to t.criticParams, without clipping it
// or stepping.
func (t *Team) criticGradient(idx []int, acc *lossStats) {
	for k := range t.criticGrad {
		t.criticGrad[k] = 0
	}
	total := float64(len(idx) * t.vRows())
	var in, vrow []int
	for c := range t.critics {
		in, vrow = t.criticRows(c, idx, in, vrow)
		t.upd.in = gatherRows(t.upd.in, t.criticInput(), t.cInDim, len(in), func(q int) int { return in[q] })
		out := t.critics[c].forward(t.upd.criticWorks[c], t.upd.in, len(in))
		if cap(t.upd.dOut) < len(vrow) {
			t.upd.dOut = make([]float64, len(vrow))
		}
		dOut := t.upd.dOut[:len(vrow)]
		for q, r := range vrow {
			d := out[q] - t.buf.target[r]
			dOut[q] = d / total
			acc.v += d * d
			acc.valueRows++
		}
		off, np := t.criticOffs[c], t.critics[c].numParams()
		t.critics[c].backward(t.upd.criticWorks[c], dOut, t.criticGrad[off:off+np])
	}
}

// step clips the gradient's norm and takes an Adam step, or reports a
// non-finite gradient, or a parameter the step made NaN or infinite (a
// learning rate so large that the step overflows).
func (t *Team) step(opt *adam, params, grad []float64, what string) error {
	norm := clipGradNorm(grad, t.cfg.MaxGradNorm)
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return fmt.Errorf("learn: %s gradient norm %v at iteration %d: %w", what, norm, t.iter+1, ErrDiverged)
	}
	opt.step(params, grad)
	for k, p := range params {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return fmt.Errorf("learn: %s parameter %d is %v after the Adam step (learning rate %v) at iteration %d: %w",
				what, k, p, opt.lr, t.iter+1, ErrDiverged)
		}
	}
	return nil
}
