package learn

import (
	"fmt"
	"math"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// EnvSpec describes an environment of package simulate by plain values, so
// that runs can be written to disk, resumed and listed in tables.
type EnvSpec struct {
	// Name is "matrix", "capture", "tag" or "tag-vmas" (simulate.TagVMAS:
	// Tag as the VMAS scenario file of the paper's authors defines it).
	Name string
	// Agents is N (Tag: the chasers) and Tasks is M (Capture: the goals;
	// Tag and TagVMAS: the escapers). Zero means 2.
	Agents, Tasks int
	// Discrete selects the discrete matrix game (New refuses it for any
	// other environment).
	Discrete bool
	// U and T are the outer and inner operators in the syntax of
	// aggregators.Parse, such as "min" or "softmax(0)".
	U, T string
	// EpisodeLength overrides the episode length of Capture and the Tags (zero
	// keeps the environment's default of 100; New refuses any other value
	// for the matrix game, whose episodes are one step).
	EpisodeLength int
	// Sensor adds Capture's range sensor (New refuses it for any other
	// environment).
	Sensor bool
	// Params are environment parameters set in every environment of the
	// run when it is built (New), before training: Tag's "shaping" or
	// "escaper.speed", the reward's "U.t", any name of the environment's
	// Params (see its doc in package simulate). Empty keeps the
	// environment's defaults. A name the environment does not have, a
	// value outside its domain, or an infinite value (a spec is stored as
	// JSON), is an error of New (and of RunSpec.Check). A RunSpec with a Maker does not use its Env, nor
	// these.
	Params simulate.Params
}

// String returns a compact description such as "matrix-cont N=4 M=4
// U=min T=max", followed by "sensor" if Capture has its range sensor and
// the Params if any, as in "tag N=2 M=2 U=mean T=max shaping=0.2" or
// "capture N=2 M=2 U=min T=max sensor sensor.range=0.2".
func (s EnvSpec) String() string {
	s = s.withDefaults()
	name := s.Name
	if s.Name == "matrix" {
		name += map[bool]string{false: "-cont", true: "-disc"}[s.Discrete]
	}
	str := fmt.Sprintf("%s N=%d M=%d U=%s T=%s", name, s.Agents, s.Tasks, s.U, s.T)
	if s.Sensor {
		str += " sensor"
	}
	for k, p := range s.Params.Names {
		if k < len(s.Params.Values) {
			str += fmt.Sprintf(" %s=%g", p, s.Params.Values[k])
		}
	}
	return str
}

// withDefaults returns s with N and M defaulted and the name and operators
// in canonical form (an operator as aggregators.Parse's result prints
// itself: "MIN" and "min" are the same operator), so that two specs of one
// environment are equal, and a run can be resumed under either.
func (s EnvSpec) withDefaults() EnvSpec {
	s.Name = strings.ToLower(strings.TrimSpace(s.Name))
	setInt(&s.Agents, 2)
	setInt(&s.Tasks, 2)
	s.U, s.T = canonicalOperator(s.U), canonicalOperator(s.T)
	return s
}

// canonicalOperator returns the operator of spec as it prints itself, or
// spec unchanged if it does not parse (Reward reports that).
func canonicalOperator(spec string) string {
	op, err := aggregators.Parse(spec)
	if err != nil {
		return spec
	}
	return op.String()
}

// Reward returns the reward U(T(...)) of the spec.
func (s EnvSpec) Reward() (*aggregators.Reward, error) {
	u, err := aggregators.Parse(s.U)
	if err != nil {
		return nil, fmt.Errorf("learn: outer operator: %v: %w", err, ErrConfig)
	}
	t, err := aggregators.Parse(s.T)
	if err != nil {
		return nil, fmt.Errorf("learn: inner operator: %v: %w", err, ErrConfig)
	}
	return aggregators.NewReward(u, t), nil
}

// New returns the environment of the spec with batch parallel episodes.
// Its errors wrap ErrConfig (and, for a spec that package simulate
// refuses, simulate.ErrConfig too).
func (s EnvSpec) New(batch int) (simulate.Env, error) {
	s = s.withDefaults()
	if s.Agents < 1 || s.Tasks < 1 {
		return nil, fmt.Errorf("learn: %d agents and %d tasks, want at least 1 each: %w", s.Agents, s.Tasks, ErrConfig)
	}
	if s.Sensor && s.Name != "capture" {
		return nil, fmt.Errorf("learn: Sensor for %q: only capture has a range sensor: %w", s.Name, ErrConfig)
	}
	if s.Discrete && s.Name != "matrix" {
		return nil, fmt.Errorf("learn: Discrete for %q: only the matrix game has discrete actions: %w", s.Name, ErrConfig)
	}
	if s.EpisodeLength != 0 && s.Name == "matrix" {
		return nil, fmt.Errorf("learn: EpisodeLength %d for the matrix game, whose episodes are one step: %w", s.EpisodeLength, ErrConfig)
	}
	for k, v := range s.Params.Values {
		if math.IsInf(v, 0) && k < len(s.Params.Names) {
			return nil, fmt.Errorf("learn: Params %s = %v: a spec is stored as JSON, which has no infinities (give the limit in the operator, as U = \"softmax(inf)\"): %w",
				s.Params.Names[k], v, ErrConfig)
		}
	}
	r, err := s.Reward()
	if err != nil {
		return nil, err
	}
	var env simulate.Env
	switch s.Name {
	case "matrix":
		env, err = simulate.NewMatrixGame(batch, s.Agents, s.Tasks, s.Discrete, r)
	case "capture":
		env, err = simulate.NewCapture(simulate.CaptureConfig{Batch: batch, Agents: s.Agents, Goals: s.Tasks,
			Reward: r, EpisodeLength: s.EpisodeLength, Sensor: s.Sensor})
	case "tag":
		env, err = simulate.NewTag(simulate.TagConfig{Batch: batch, Chasers: s.Agents, Escapers: s.Tasks,
			Obstacles: 2, Reward: r, EpisodeLength: s.EpisodeLength})
	case "tag-vmas":
		env, err = simulate.NewTagVMAS(simulate.TagVMASConfig{Batch: batch, Chasers: s.Agents, Escapers: s.Tasks,
			Obstacles: 2, Reward: r, EpisodeLength: s.EpisodeLength})
	default:
		return nil, fmt.Errorf("learn: unknown environment %q (want matrix, capture, tag or tag-vmas): %w", s.Name, ErrConfig)
	}
	if err == nil && len(s.Params.Names)+len(s.Params.Values) > 0 {
		err = env.SetParams(s.Params)
	}
	if err != nil {
		return nil, envError{spec: s, err: err}
	}
	return env, nil
}

// envError is an error of package simulate building the environment of
// spec; it wraps that error and ErrConfig.
type envError struct {
	spec EnvSpec
	err  error
}

func (e envError) Error() string   { return fmt.Sprintf("learn: environment %v: %v", e.spec, e.err) }
func (e envError) Unwrap() []error { return []error{e.err, ErrConfig} }
