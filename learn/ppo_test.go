package learn

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// ---------------------------------------------------------------------
// Helpers shared by the tests of this package.

// matrixMaker returns the matrix game with N agents, M tasks and the
// reward U(T(...)).
func matrixMaker(n, m int, discrete bool, u, t string) EnvMaker {
	return func(batch int) (simulate.Env, error) {
		r := aggregators.NewReward(aggregators.MustParse(u), aggregators.MustParse(t))
		return simulate.NewMatrixGame(batch, n, m, discrete, r)
	}
}

// captureMaker returns a small Multi-goal-capture (N agents, M goals,
// episodes of length steps, U = min, T = max).
func captureMaker(n, m, length int) EnvMaker {
	return func(batch int) (simulate.Env, error) {
		r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
		return simulate.NewCapture(simulate.CaptureConfig{Batch: batch, Agents: n, Goals: m, Reward: r, EpisodeLength: length})
	}
}

// tagMaker returns a small 2v2-style Tag (N chasers, M escapers, episodes
// of length steps, U = min, T = max), whose chasers have rewards of their
// own (simulate.AgentRewarder).
func tagMaker(n, m, length int) EnvMaker {
	return func(batch int) (simulate.Env, error) {
		r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
		return simulate.NewTag(simulate.TagConfig{Batch: batch, Chasers: n, Escapers: m, Obstacles: 2, Reward: r, EpisodeLength: length})
	}
}

func mustTeam(t testing.TB, mk EnvMaker, cfg Config) *Team {
	t.Helper()
	tm, err := NewTeam(mk, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// refNumParams is the number of parameters of a tanh MLP of the given
// widths: (in+1)·out per layer.
func refNumParams(sizes []int) int {
	n := 0
	for l := 0; l+1 < len(sizes); l++ {
		n += (sizes[l] + 1) * sizes[l+1]
	}
	return n
}

// refForward evaluates the MLP of layer widths sizes with flat parameters
// params (per layer: in·out weights, W[i·out+j] from input i to output j,
// then out biases) on x: tanh on hidden layers, linear output.
func refForward(sizes []int, params, x []float64) []float64 {
	h, off := x, 0
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		y := make([]float64, out)
		for j := 0; j < out; j++ {
			s := params[off+in*out+j]
			for i := 0; i < in; i++ {
				s += h[i] * params[off+i*out+j]
			}
			if l+2 < len(sizes) {
				s = math.Tanh(s)
			}
			y[j] = s
		}
		off += (in + 1) * out
		h = y
	}
	return h
}

// refLayerSizes returns the widths of the team's actor or critic networks,
// derived from the environment and the configuration alone.
func refLayerSizes(tm *Team, critic bool) []int {
	cfg := tm.Config()
	sp := tm.space
	in := tm.obsDim
	if cfg.AgentIndex {
		in += tm.n
	}
	out := sp.Dim
	if sp.Discrete {
		out = sp.Choices
	}
	if critic {
		out = 1
		if cfg.Critic == Centralised {
			in = tm.n * tm.obsDim
			if cfg.AgentRewards || cfg.DifferenceRewards {
				out = tm.n // a value per agent
			}
		}
	}
	return append(append([]int{in}, cfg.Hidden...), out)
}

// refValueRows is the number of value estimates (and advantages) per
// frame: one per agent with per-agent critics or the agents' own rewards,
// else one for the team.
func refValueRows(cfg Config, n int) int {
	if cfg.Critic == PerAgent || cfg.AgentRewards || cfg.DifferenceRewards {
		return n
	}
	return 1
}

// refAdvantageScale returns the mean and 1/(std + 1e-8) of the advantages
// of frames idx (population standard deviation), or 0 and 1 for raw
// advantages.
func refAdvantageScale(tm *Team, idx []int) (float64, float64) {
	if tm.cfg.RawAdvantage {
		return 0, 1
	}
	vr := refValueRows(tm.cfg, tm.n)
	var all []float64
	for _, f := range idx {
		all = append(all, tm.buf.adv[f*vr:(f+1)*vr]...)
	}
	m := 0.0
	for _, a := range all {
		m += a
	}
	m /= float64(len(all))
	v := 0.0
	for _, a := range all {
		v += (a - m) * (a - m)
	}
	return m, 1 / (math.Sqrt(v/float64(len(all))) + 1e-8)
}

// surrogateSample describes the ratio and advantage of one sample of the
// reference loss.
type surrogateSample struct{ rho, adv float64 }

// refActorLoss is the PPO actor loss at actor parameters theta, written
// from its definition: the mean over the (frame, agent) samples of frames
// idx of −min(ρA, clip(ρ, 1−ε, 1+ε)A) − c·H, with ρ = π/π_old of the
// buffered action, A the agent's normalised advantage and H the entropy of
// the agent's action distribution. The parameters of actor a are the
// network's, then (continuous actions) one log standard deviation per
// action coordinate.
func refActorLoss(tm *Team, theta []float64, idx []int, samples *[]surrogateSample) float64 {
	cfg := tm.Config()
	n := tm.n
	sizes := refLayerSizes(tm, false)
	np := refNumParams(sizes)
	disc := tm.space.Discrete
	out := sizes[len(sizes)-1]
	per := np
	if !disc {
		per += out
	}
	vr := refValueRows(cfg, n)
	am, ainv := refAdvantageScale(tm, idx)
	eps := cfg.Clip
	total := 0.0
	for _, f := range idx {
		for i := 0; i < n; i++ {
			a := i
			if cfg.Kind == Homogeneous {
				a = 0
			}
			p := theta[a*per : (a+1)*per]
			row := f*n + i
			x := tm.buf.actorIn[row*sizes[0] : (row+1)*sizes[0]]
			y := refForward(sizes, p[:np], x)
			logp, ent := 0.0, 0.0
			if disc {
				c := int(tm.buf.raw[row])
				z := 0.0
				for _, v := range y {
					z += math.Exp(v)
				}
				logp = y[c] - math.Log(z)
				for _, v := range y {
					q := math.Exp(v) / z
					ent -= q * math.Log(q)
				}
			} else {
				for c, mu := range y {
					ls := p[np+c]
					sd := math.Exp(ls)
					u := tm.buf.raw[row*out+c]
					logp += -(u-mu)*(u-mu)/(2*sd*sd) - ls - 0.5*math.Log(2*math.Pi)
					ent += ls + 0.5*math.Log(2*math.Pi*math.E)
				}
			}
			j := 0
			if vr > 1 {
				j = i
			}
			adv := (tm.buf.adv[f*vr+j] - am) * ainv
			rho := math.Exp(logp - tm.buf.logp[row])
			cl := math.Max(1-eps, math.Min(1+eps, rho))
			total += -math.Min(rho*adv, cl*adv) - cfg.EntropyCoef*ent
			if samples != nil {
				*samples = append(*samples, surrogateSample{rho, adv})
			}
		}
	}
	return total / float64(len(idx)*n)
}

// refCriticLoss is the mean over the value rows of frames idx of
// (V − target)²/2 at critic parameters phi.
func refCriticLoss(tm *Team, phi []float64, idx []int) float64 {
	cfg := tm.Config()
	n := tm.n
	sizes := refLayerSizes(tm, true)
	np := refNumParams(sizes)
	vr := refValueRows(cfg, n)
	s := 0.0
	for _, f := range idx {
		for j := 0; j < vr; j++ {
			var x []float64
			c, out := 0, 0
			if cfg.Critic == Centralised {
				x = tm.buf.criticIn[f*sizes[0] : (f+1)*sizes[0]]
				out = j // agent j's value, or the team's (j = 0)
			} else {
				row := f*n + j
				x = tm.buf.actorIn[row*sizes[0] : (row+1)*sizes[0]]
				if cfg.Kind == Heterogeneous {
					c = j
				}
			}
			v := refForward(sizes, phi[c*np:(c+1)*np], x)[out]
			d := v - tm.buf.target[f*vr+j]
			s += d * d / 2
		}
	}
	return s / float64(len(idx)*vr)
}

// fdGradient returns the central finite differences of loss at x.
func fdGradient(x []float64, h float64, loss func([]float64) float64) []float64 {
	g := make([]float64, len(x))
	y := append([]float64(nil), x...)
	for k := range x {
		y[k] = x[k] + h
		lp := loss(y)
		y[k] = x[k] - h
		lm := loss(y)
		y[k] = x[k]
		g[k] = (lp - lm) / (2 * h)
	}
	return g
}

// compareGradients fails unless every element of got is within relative
// error tol of want, relative to the larger of the two values and of a
// floor of 1e-3 times the largest element (so that elements that are
// zero up to rounding do not count as large relative errors).
func compareGradients(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	scale := 0.0
	for k := range want {
		scale = math.Max(scale, math.Max(math.Abs(got[k]), math.Abs(want[k])))
	}
	if scale == 0 {
		return
	}
	worst, at := 0.0, -1
	for k := range want {
		den := math.Max(math.Max(math.Abs(got[k]), math.Abs(want[k])), 1e-3*scale)
		if e := math.Abs(got[k]-want[k]) / den; e > worst {
			worst, at = e, k
		}
	}
	t.Logf("%s: worst relative error %.2g", what, worst)
	if worst > tol {
		t.Errorf("%s: relative error %.3g at parameter %d of %d: backprop %.12g, finite differences %.12g (largest element %.3g)",
			what, worst, at, len(got), got[at], want[at], scale)
	}
}

// ---------------------------------------------------------------------
// Backpropagation of the PPO losses against finite differences.

type gradCase struct {
	name string
	mk   EnvMaker
	cfg  Config
}

func gradCases() []gradCase {
	envs := []struct {
		name string
		mk   EnvMaker
	}{
		{"matrix-cont", matrixMaker(2, 3, false, "min", "max")},
		{"matrix-disc", matrixMaker(3, 2, true, "min", "mean")},
		{"capture", captureMaker(2, 2, 5)},
		{"tag-own-rewards", tagMaker(2, 2, 5)},
		{"tag-difference-rewards", tagMaker(2, 2, 5)},
		{"matrix-difference-rewards", matrixMaker(2, 3, false, "mean", "max")},
		{"capture-difference-rewards", captureMaker(2, 2, 5)},
	}
	var cs []gradCase
	for _, e := range envs {
		for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
			for _, critic := range []CriticKind{Centralised, PerAgent} {
				for _, index := range []bool{false, true} {
					cfg := Config{Kind: kind, Critic: critic, AgentIndex: index, AgentRewards: e.name == "tag-own-rewards", DifferenceRewards: strings.HasSuffix(e.name, "difference-rewards"),
						Hidden: []int{6, 5}, Envs: 3, FramesPerIter: 30, Minibatch: 20,
						LR: 0.03, Clip: 0.1, EntropyCoef: 0.05, InitLogStd: -0.3, MaxGradNorm: 10,
						Gamma: 0.8, Lambda: 0.7, Seed: 11}
					if kind == Homogeneous && index {
						cfg.RawAdvantage = true // exercise both normalisations
					}
					cs = append(cs, gradCase{fmt.Sprintf("%s/%v/%v/index=%v", e.name, kind, critic, index), e.mk, cfg})
				}
			}
		}
	}
	return cs
}

// prepareGradTeam fills the buffer of a fresh team with one iteration and
// moves the actor and critic away from the collecting parameters with a
// few optimiser steps, so that ratios differ from 1.
func prepareGradTeam(t *testing.T, c gradCase) *Team {
	tm := mustTeam(t, c.mk, c.cfg)
	if err := tm.collect(); err != nil {
		t.Fatal(err)
	}
	tm.computeValues()
	tm.computeAdvantages()
	all := make([]int, tm.buf.frames)
	for f := range all {
		all[f] = f
	}
	idx := gradMinibatch(tm)
	for k := 0; k < 40; k++ {
		var acc lossStats
		if err := tm.actorStep(all, &acc); err != nil {
			t.Fatal(err)
		}
		if err := tm.criticStep(all, &acc); err != nil {
			t.Fatal(err)
		}
		if k < 3 {
			continue
		}
		// stop once the minibatch has clipped and unclipped samples
		acc = lossStats{}
		tm.actorGradient(idx, &acc)
		if acc.clipped > 0 && acc.clipped < acc.samples {
			break
		}
	}
	return tm
}

// gradMinibatch returns a minibatch of frames: every other frame, in
// reverse order.
func gradMinibatch(tm *Team) []int {
	var idx []int
	for f := tm.buf.frames - 1; f >= 0; f -= 2 {
		idx = append(idx, f)
	}
	return idx
}

func TestActorGradientFiniteDifferences(t *testing.T) {
	for _, c := range gradCases() {
		t.Run(c.name, func(t *testing.T) {
			tm := prepareGradTeam(t, c)
			theta := append([]float64(nil), tm.actorParams...)
			// Drop the frames with a ratio near a kink of the clip, where
			// finite differences would straddle it.
			var idx []int
			var ss []surrogateSample
			refActorLoss(tm, theta, gradMinibatch(tm), &ss)
			for q := 0; q < len(ss); q += tm.n {
				ok := true
				for _, s := range ss[q : q+tm.n] {
					ok = ok && math.Abs(s.rho-1-tm.cfg.Clip) > 1e-3 && math.Abs(s.rho-1+tm.cfg.Clip) > 1e-3
				}
				if ok {
					idx = append(idx, gradMinibatch(tm)[q/tm.n])
				}
			}
			if len(idx) < 5 {
				t.Fatalf("only %d frames away from the clip's kinks", len(idx))
			}

			// The reference loss must exercise both branches of the clip
			// and have no sample near a kink.
			var samples []surrogateSample
			refActorLoss(tm, theta, idx, &samples)
			clipped, free, nearest := 0, 0, math.Inf(1)
			eps := tm.cfg.Clip
			for _, s := range samples {
				if s.adv >= 0 && s.rho > 1+eps || s.adv < 0 && s.rho < 1-eps {
					clipped++
				} else {
					free++
				}
				nearest = math.Min(nearest, math.Min(math.Abs(s.rho-1-eps), math.Abs(s.rho-1+eps)))
			}
			if clipped == 0 || free == 0 {
				t.Fatalf("%d clipped and %d unclipped samples: both branches must be exercised", clipped, free)
			}
			if nearest < 1e-3 {
				t.Fatalf("a ratio lies %.3g from a clip boundary; finite differences would straddle the kink", nearest)
			}

			var acc lossStats
			tm.actorGradient(idx, &acc)
			got := append([]float64(nil), tm.actorGrad...)
			if nonZero(got) == 0 {
				t.Fatal("zero actor gradient")
			}
			for k := range theta {
				if tm.actorParams[k] != theta[k] {
					t.Fatal("actorGradient changed the parameters")
				}
			}
			want := fdGradient(theta, 1e-5, func(p []float64) float64 { return refActorLoss(tm, p, idx, nil) })
			compareGradients(t, "actor", got, want, 1e-5)
			if int(acc.clipped) != clipped || int(acc.samples) != len(samples) {
				t.Errorf("lossStats: %v clipped of %v samples, want %d of %d", acc.clipped, acc.samples, clipped, len(samples))
			}
			if !tm.space.Discrete {
				// the log standard deviations must have a gradient
				sizes := refLayerSizes(tm, false)
				np := refNumParams(sizes)
				ls := got[np : np+sizes[len(sizes)-1]]
				nz := false
				for _, v := range ls {
					nz = nz || v != 0
				}
				if !nz {
					t.Error("zero gradient for the log standard deviations")
				}
			}
		})
	}
}

func TestCriticGradientFiniteDifferences(t *testing.T) {
	for _, c := range gradCases() {
		t.Run(c.name, func(t *testing.T) {
			tm := prepareGradTeam(t, c)
			idx := gradMinibatch(tm)
			phi := append([]float64(nil), tm.criticParams...)
			var acc lossStats
			tm.criticGradient(idx, &acc)
			got := append([]float64(nil), tm.criticGrad...)
			if nonZero(got) == 0 {
				t.Fatal("zero critic gradient")
			}
			for k := range phi {
				if tm.criticParams[k] != phi[k] {
					t.Fatal("criticGradient changed the parameters")
				}
			}
			want := fdGradient(phi, 1e-5, func(p []float64) float64 { return refCriticLoss(tm, p, idx) })
			compareGradients(t, "critic", got, want, 1e-5)
			// ValueLoss diagnostic: the mean squared error.
			if l := 2 * refCriticLoss(tm, phi, idx); math.Abs(acc.v/acc.valueRows-l) > 1e-12*math.Max(1, l) {
				t.Errorf("value loss %v, want %v", acc.v/acc.valueRows, l)
			}
		})
	}
}

// TestGradientStepIsAdamOnClippedGradient checks that actorStep is
// actorGradient followed by norm clipping and one Adam step.
func TestGradientStepIsAdamOnClippedGradient(t *testing.T) {
	c := gradCases()[0]
	c.cfg.MaxGradNorm = 1e-3 // certainly clipped
	tm := prepareGradTeam(t, c)
	idx := gradMinibatch(tm)
	var acc lossStats
	tm.actorGradient(idx, &acc)
	g := append([]float64(nil), tm.actorGrad...)
	norm := 0.0
	for _, v := range g {
		norm += v * v
	}
	norm = math.Sqrt(norm)
	if norm <= 1e-3 {
		t.Fatalf("gradient norm %v is not above the clip", norm)
	}
	for k := range g {
		g[k] *= 1e-3 / norm
	}
	want := append([]float64(nil), tm.actorParams...)
	ref := &adam{lr: tm.actorOpt.lr, beta1: 0.9, beta2: 0.999, eps: 1e-8,
		m: append([]float64(nil), tm.actorOpt.m...), v: append([]float64(nil), tm.actorOpt.v...), t: tm.actorOpt.t}
	ref.step(want, g)
	if err := tm.actorStep(idx, &acc); err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if math.Abs(tm.actorParams[k]-want[k]) > 1e-15*math.Max(1, math.Abs(want[k])) {
			t.Fatalf("parameter %d: %v after actorStep, want %v", k, tm.actorParams[k], want[k])
		}
	}
}

// TestDivergedGradient checks that a non-finite gradient is reported as
// ErrDiverged and leaves the parameters alone.
func TestDivergedGradient(t *testing.T) {
	c := gradCases()[0]
	tm := prepareGradTeam(t, c)
	idx := gradMinibatch(tm)
	before := append([]float64(nil), tm.actorParams...)
	tm.buf.adv[idx[0]] = math.NaN()
	var acc lossStats
	err := tm.actorStep(idx, &acc)
	if !errors.Is(err, ErrDiverged) {
		t.Fatalf("actorStep with a NaN advantage: %v, want ErrDiverged", err)
	}
	for k := range before {
		if tm.actorParams[k] != before[k] && !(math.IsNaN(before[k]) && math.IsNaN(tm.actorParams[k])) {
			t.Fatal("parameters changed by a diverged step")
		}
	}
}

// TestSampleGradFiniteDifferences checks the per-sample gradient with
// respect to the actor's outputs (Gaussian means and log standard
// deviations, or logits) against finite differences of the per-sample
// loss, on both sides of the clip and with the entropy bonus.
func TestSampleGradFiniteDifferences(t *testing.T) {
	r := newRNG(5, 77)
	const entCoef, eps, scale = 0.07, 0.2, 0.25
	for _, disc := range []bool{false, true} {
		tm := mustTeam(t, matrixMaker(2, 4, disc, "min", "max"), Config{Hidden: []int{3}, Envs: 2, EntropyCoef: entCoef, Clip: eps})
		d := tm.outDim
		clipped := 0
		for trial := 0; trial < 60; trial++ {
			out := make([]float64, d)
			for k := range out {
				out[k] = 2 * r.normal()
			}
			raw := make([]float64, tm.rawW())
			if disc {
				raw[0] = float64(r.intn(d))
			} else {
				for c := range raw {
					raw[c] = 2 * r.normal()
				}
				for c := range tm.logStd[0] {
					tm.logStd[0][c] = 0.5 * r.normal()
				}
			}
			var ls []float64
			if !disc {
				ls = append(ls, tm.logStd[0]...)
			}
			adv := r.normal()
			// choose logpOld so that log ρ is uniform in ±0.5: both sides
			// of the clip
			logpNew := lossLogProb(disc, raw, out, ls)
			logpOld := logpNew - (r.float64() - 0.5)
			if rho := math.Exp(logpNew - logpOld); math.Abs(rho-1-eps) < 1e-3 || math.Abs(rho-1+eps) < 1e-3 {
				continue
			}
			dOut := make([]float64, d)
			dLs := make([]float64, d)
			var acc lossStats
			tm.sampleGrad(0, out, raw, logpOld, adv, scale, dOut, dLs, &acc)
			clipped += int(acc.clipped)
			loss := func(y, l []float64) float64 {
				return lossWithOld(disc, raw, y, l, logpOld, adv, scale, entCoef, eps)
			}
			want := fdGradient(out, 1e-6, func(y []float64) float64 { return loss(y, ls) })
			compareGradients(t, fmt.Sprintf("disc=%v trial %d dOut", disc, trial), dOut, want, 1e-6)
			if !disc {
				wantLs := fdGradient(ls, 1e-6, func(l []float64) float64 { return loss(out, l) })
				compareGradients(t, fmt.Sprintf("trial %d dLogStd", trial), dLs, wantLs, 1e-6)
			}
			if acc.samples != 1 || math.Abs(acc.kl-(logpOld-logpNew)) > 1e-12 {
				t.Errorf("stats: %v samples, kl %v, want 1 and %v", acc.samples, acc.kl, logpOld-logpNew)
			}
		}
		if clipped == 0 {
			t.Errorf("disc=%v: no trial clipped", disc)
		}
	}
}

// lossLogProb is log π(raw) from the density formulas.
func lossLogProb(disc bool, raw, y, ls []float64) float64 {
	logp := 0.0
	if disc {
		z := 0.0
		for _, v := range y {
			z += math.Exp(v)
		}
		return y[int(raw[0])] - math.Log(z)
	}
	for c := range y {
		sd := math.Exp(ls[c])
		logp += -0.5*(raw[c]-y[c])*(raw[c]-y[c])/(sd*sd) - ls[c] - 0.5*math.Log(2*math.Pi)
	}
	return logp
}

// lossWithOld is the per-sample PPO loss, scaled, from its definition.
func lossWithOld(disc bool, raw, y, ls []float64, logpOld, adv, scale, entCoef, eps float64) float64 {
	ent := 0.0
	if disc {
		z := 0.0
		for _, v := range y {
			z += math.Exp(v)
		}
		for _, v := range y {
			p := math.Exp(v) / z
			ent -= p * math.Log(p)
		}
	} else {
		for c := range y {
			ent += ls[c] + 0.5*math.Log(2*math.Pi*math.E)
		}
	}
	rho := math.Exp(lossLogProb(disc, raw, y, ls) - logpOld)
	return scale * (-math.Min(rho*adv, math.Max(1-eps, math.Min(1+eps, rho))*adv) - entCoef*ent)
}

// TestSurrogateCoef checks d loss / d log π against the closed form and
// the clip accounting on a grid of ratios and advantages.
func TestSurrogateCoef(t *testing.T) {
	tm := mustTeam(t, matrixMaker(2, 2, false, "min", "max"), Config{Hidden: []int{2}, Envs: 1, Clip: 0.25})
	for _, adv := range []float64{-2, -0.5, 0, 0.5, 2} {
		for _, lr := range []float64{-1, -0.3, -0.2, -0.01, 0, 0.01, 0.2, 0.3, 1} {
			var acc lossStats
			got := tm.surrogateCoef(lr, 0, adv, &acc)
			rho := math.Exp(lr)
			// d/d log ρ of −min(ρA, clip(ρ)A) by finite differences
			f := func(l float64) float64 {
				r := math.Exp(l)
				return -math.Min(r*adv, math.Max(0.75, math.Min(1.25, r))*adv)
			}
			want := (f(lr+1e-7) - f(lr-1e-7)) / 2e-7
			if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("A=%v ρ=%v: coefficient %v, want %v", adv, rho, got, want)
			}
			wantClipped := adv >= 0 && rho > 1.25 || adv < 0 && rho < 0.75
			if (acc.clipped == 1) != wantClipped {
				t.Errorf("A=%v ρ=%v: clipped %v, want %v", adv, rho, acc.clipped, wantClipped)
			}
		}
	}
}

// ---------------------------------------------------------------------
// Distributions.

func TestGaussLogProb(t *testing.T) {
	r := newRNG(1, 2)
	for k := 0; k < 200; k++ {
		u, mu, ls := 3*r.normal(), 3*r.normal(), 2*r.normal()
		sd := math.Exp(ls)
		want := -math.Log(sd*math.Sqrt(2*math.Pi)) - (u-mu)*(u-mu)/(2*sd*sd)
		if z := (u - mu) / sd; math.Abs(z) < 20 {
			// the density itself, where it does not underflow
			want = math.Log(1 / (sd * math.Sqrt(2*math.Pi)) * math.Exp(-z*z/2))
		}
		if got := gaussLogProb(u, mu, ls); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("gaussLogProb(%v, %v, %v) = %v, want %v", u, mu, ls, got, want)
		}
		dMu, dLs := gaussLogProbGrad(u, mu, ls)
		h := 1e-6
		fdMu := (gaussLogProb(u, mu+h, ls) - gaussLogProb(u, mu-h, ls)) / (2 * h)
		fdLs := (gaussLogProb(u, mu, ls+h) - gaussLogProb(u, mu, ls-h)) / (2 * h)
		if math.Abs(dMu-fdMu) > 1e-6*math.Max(1, math.Abs(fdMu)) || math.Abs(dLs-fdLs) > 1e-6*math.Max(1, math.Abs(fdLs)) {
			t.Fatalf("gaussLogProbGrad(%v, %v, %v) = %v, %v; finite differences %v, %v", u, mu, ls, dMu, dLs, fdMu, fdLs)
		}
	}
	// entropy: -E[log p] by quadrature of the density
	for _, ls := range []float64{-2, 0, 0.7} {
		sd := math.Exp(ls)
		h, s := 0.0, 0.0
		for x := -12 * sd; x <= 12*sd; x += sd / 1000 {
			lp := gaussLogProb(x, 0, ls)
			s -= math.Exp(lp) * lp * sd / 1000
		}
		h = gaussEntropy(ls)
		if math.Abs(h-s) > 1e-6 {
			t.Errorf("gaussEntropy(%v) = %v, quadrature %v", ls, h, s)
		}
	}
}

func TestCategorical(t *testing.T) {
	r := newRNG(3, 4)
	for trial := 0; trial < 100; trial++ {
		k := 2 + r.intn(5)
		logits := make([]float64, k)
		for j := range logits {
			logits[j] = 3 * r.normal()
		}
		if trial == 0 {
			logits[0] = 800 // overflow of a naive softmax
		}
		// direct softmax, shifted by the maximum
		mx := math.Inf(-1)
		for _, v := range logits {
			mx = math.Max(mx, v)
		}
		z := 0.0
		for _, v := range logits {
			z += math.Exp(v - mx)
		}
		p := make([]float64, k)
		softmaxInto(p, logits)
		h := 0.0
		for j, v := range logits {
			q := math.Exp(v-mx) / z
			if math.Abs(p[j]-q) > 1e-14 {
				t.Fatalf("softmax %v, want %v at %d", p[j], q, j)
			}
			if lp := categoricalLogProb(logits, j); math.Abs(lp-(v-mx-math.Log(z))) > 1e-12*math.Max(1, math.Abs(lp)) {
				t.Fatalf("categoricalLogProb %v, want %v", lp, v-mx-math.Log(z))
			}
			if q > 0 {
				h -= q * math.Log(q)
			}
		}
		p2 := make([]float64, k)
		if got := categoricalEntropy(p2, logits); math.Abs(got-h) > 1e-12 {
			t.Fatalf("categoricalEntropy %v, want %v", got, h)
		}
		// gradients used by the PPO loss: d log p_c / d logit_j = [j=c] − p_j
		// and d H / d logit_j = −p_j (log p_j + H).
		c := r.intn(k)
		gLp := fdGradient(logits, 1e-6, func(x []float64) float64 { return categoricalLogProb(x, c) })
		gH := fdGradient(logits, 1e-6, func(x []float64) float64 { return categoricalEntropy(make([]float64, k), x) })
		for j := range logits {
			ind := 0.0
			if j == c {
				ind = 1
			}
			if trial == 0 {
				break // finite differences are meaningless at logit 800
			}
			if d := ind - p2[j]; math.Abs(d-gLp[j]) > 1e-7 {
				t.Fatalf("d log p_%d / d logit_%d = %v, finite differences %v", c, j, d, gLp[j])
			}
			dH := 0.0
			if p2[j] > 0 {
				dH = -p2[j] * (math.Log(p2[j]) + h)
			}
			if math.Abs(dH-gH[j]) > 1e-7 {
				t.Fatalf("d H / d logit_%d = %v, finite differences %v", j, dH, gH[j])
			}
		}
	}
	if a := argmax([]float64{1, 3, 3, 2}); a != 1 {
		t.Errorf("argmax = %d, want the first maximum 1", a)
	}
}

// TestSampleCategoricalFrequencies draws from sampleCategorical with
// uniform u and compares the counts with the softmax probabilities by a
// chi-square statistic.
func TestSampleCategoricalFrequencies(t *testing.T) {
	logits := []float64{0.3, -1, 2, 0, -0.5}
	p := make([]float64, len(logits))
	softmaxInto(p, logits)
	r := newRNG(9, 9)
	const n = 200000
	counts := make([]float64, len(logits))
	for k := 0; k < n; k++ {
		counts[sampleCategorical(logits, r.float64())]++
	}
	chi2 := 0.0
	for j := range p {
		e := n * p[j]
		chi2 += (counts[j] - e) * (counts[j] - e) / e
	}
	// 4 degrees of freedom: P(χ² > 30) ≈ 5e-6.
	if chi2 > 30 {
		t.Errorf("χ² = %.1f for counts %v and probabilities %v", chi2, counts, p)
	}
}

func TestSampleCategoricalBoundaries(t *testing.T) {
	ninf := math.Inf(-1)
	logits := []float64{0, math.Log(3), ninf, 0}
	// probabilities 1/5, 3/5, 0, 1/5: intervals [0,.2), [.2,.8), -, [.8,1)
	p := make([]float64, 4)
	softmaxInto(p, logits)
	cum := 0.0
	for j, q := range p {
		if q == 0 {
			continue
		}
		lo, hi := cum, cum+q
		cum = hi
		if c := sampleCategorical(logits, lo); c != j {
			t.Errorf("u = %v (start of choice %d): got %d", lo, j, c)
		}
		if below := math.Nextafter(hi, 0); below > lo {
			if c := sampleCategorical(logits, below); c != j {
				t.Errorf("u = %v (just below the end of choice %d): got %d", below, j, c)
			}
		}
	}
	for _, u := range []float64{math.Nextafter(1, 0), 1, 1.5} {
		if c := sampleCategorical(logits, u); c != 3 {
			t.Errorf("u = %v: got %d, want the last choice with positive probability 3", u, c)
		}
	}
	if c := sampleCategorical([]float64{0, 0, ninf, ninf}, math.Nextafter(1, 0)); c != 1 {
		t.Errorf("trailing impossible choices: got %d, want 1", c)
	}
	if c := sampleCategorical([]float64{ninf, 5, 5}, 0); c != 1 {
		t.Errorf("leading impossible choice at u = 0: got %d, want 1", c)
	}
	if c := sampleCategorical([]float64{1e6, 0}, 0.999999); c != 0 {
		t.Errorf("certain choice: got %d, want 0", c)
	}
}

// ---------------------------------------------------------------------
// Generalised advantage estimation.

// TestGAEBruteForce fills a multi-worker, multi-episode buffer with random
// rewards and values and compares computeAdvantages with the definition
// A_t = Σ_l (γλ)^l δ_{t+l}, δ_t = r_t + γV_{t+1} − V_t (V after the last
// step of an episode is 0), target = A + V.
func TestGAEBruteForce(t *testing.T) {
	for _, own := range []bool{false, true} {
		for _, critic := range []CriticKind{Centralised, PerAgent} {
			for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
				testGAEBruteForce(t, own, critic, kind)
			}
		}
	}
}

// testGAEBruteForce is TestGAEBruteForce for one setting; own trains on
// the agents' own rewards (Tag) instead of the team's (Capture).
func testGAEBruteForce(t *testing.T, own bool, critic CriticKind, kind TeamKind) {
	{
		{
			const W, B, L, N = 2, 3, 5, 2
			cfg := Config{Kind: kind, Critic: critic, AgentRewards: own, Hidden: []int{4}, Envs: B, Workers: W, FramesPerIter: 50, Gamma: 0.8, Lambda: 0.65, Seed: 2}
			mk := captureMaker(N, 2, L)
			if own {
				mk = tagMaker(N, 2, L)
			}
			tm := mustTeam(t, mk, cfg)
			E := 2 // ceil(50 / (W·B·L))
			if tm.buf.frames != W*E*L*B {
				t.Fatalf("%d frames, want %d", tm.buf.frames, W*E*L*B)
			}
			vr, rw := 1, 1
			if critic == PerAgent || own {
				vr = N
			}
			if own {
				rw = N
			}
			if len(tm.buf.reward) != tm.buf.frames*rw || len(tm.buf.value) != tm.buf.frames*vr {
				t.Fatalf("own rewards %v, %v: %d rewards and %d values for %d frames, want %d per frame and %d",
					own, critic, len(tm.buf.reward), len(tm.buf.value), tm.buf.frames, rw, vr)
			}
			r := newRNG(4, uint64(critic), uint64(kind))
			for f := range tm.buf.reward {
				tm.buf.reward[f] = r.normal()
			}
			for k := range tm.buf.value {
				tm.buf.value[k] = r.normal()
			}
			tm.computeAdvantages()
			g, gl := 0.8, 0.8*0.65
			for w := 0; w < W; w++ {
				for e := 0; e < E; e++ {
					for s := 0; s < L; s++ {
						for b := 0; b < B; b++ {
							frame := func(s int) int { return ((w*E+e)*L+s)*B + b }
							for j := 0; j < vr; j++ {
								V := func(s int) float64 {
									if s >= L {
										return 0
									}
									return tm.buf.value[frame(s)*vr+j]
								}
								want := 0.0
								for l := 0; s+l < L; l++ {
									rew := tm.buf.reward[frame(s+l)] // the team's
									if own {
										rew = tm.buf.reward[frame(s+l)*N+j] // agent j's
									}
									delta := rew + g*V(s+l+1) - V(s+l)
									want += math.Pow(gl, float64(l)) * delta
								}
								f := frame(s)*vr + j
								if math.Abs(tm.buf.adv[f]-want) > 1e-12 {
									t.Fatalf("own rewards %v, %v/%v worker %d episode %d step %d element %d row %d: advantage %v, want %v",
										own, critic, kind, w, e, s, b, j, tm.buf.adv[f], want)
								}
								if math.Abs(tm.buf.target[f]-(want+V(s))) > 1e-12 {
									t.Fatalf("target %v, want %v", tm.buf.target[f], want+V(s))
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestAdvantageScale checks the normalisation of a minibatch's advantages
// against a two-pass mean and standard deviation.
func TestAdvantageScale(t *testing.T) {
	for _, critic := range []CriticKind{Centralised, PerAgent} {
		tm := mustTeam(t, captureMaker(3, 2, 4), Config{Critic: critic, Hidden: []int{4}, Envs: 5, FramesPerIter: 40})
		r := newRNG(1, 1)
		for k := range tm.buf.adv {
			tm.buf.adv[k] = 10 + 3*r.normal()
		}
		idx := []int{7, 3, 19, 0, 11, 12}
		m, inv := tm.advantageScale(idx)
		wm, winv := refAdvantageScale(tm, idx)
		if math.Abs(m-wm) > 1e-12 || math.Abs(inv-winv) > 1e-9*winv {
			t.Errorf("%v: scale %v, %v, want %v, %v", critic, m, inv, wm, winv)
		}
	}
}

func nonZero(x []float64) int {
	n := 0
	for _, v := range x {
		if v != 0 {
			n++
		}
	}
	return n
}

// TestDivergedStep checks that a learning rate so large that Adam's step
// overflows (finite, so Config.Check accepts it) stops training with
// ErrDiverged at the first iteration, and no checkpoint holds the NaN
// parameters.
func TestDivergedStep(t *testing.T) {
	spec := smallSpec(3)
	spec.Team.LR = 1e308
	dir := t.TempDir()
	_, err := Train(spec, Options{Dir: dir, CheckpointEvery: 1})
	if !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "after the Adam step (learning rate 1e+308) at iteration 1") {
		t.Fatalf("Train with LR 1e308: %v, want ErrDiverged naming the step", err)
	}
	// The checkpoint, if any, is the one before the step: loadable, finite.
	if _, err := os.Stat(filepath.Join(dir, checkpointFile)); err == nil {
		if _, err := LoadPair(dir); err != nil {
			t.Errorf("the checkpoint left behind does not load: %v", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Error(err)
	}
}
