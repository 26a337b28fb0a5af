package simulate

import (
	"fmt"
	"math"
)

// captureSlots holds the tangent index of each parameter (-1 when not
// selected).
type captureSlots struct {
	drag, force, goalX, sensorRange int
	goal                            []int // [M][2] for fixed goals
	rewardU                         int
	rewardT                         []int
}

func (c *Capture) slots(params []string) captureSlots {
	s := captureSlots{drag: -1, force: -1, goalX: -1, sensorRange: -1, goal: make([]int, 2*c.m)}
	for k := range s.goal {
		s.goal[k] = -1
	}
	for k, name := range params {
		switch name {
		case "drag":
			s.drag = k
		case "force":
			s.force = k
		case "goal.x":
			s.goalX = k
		case "sensor.range":
			s.sensorRange = k
		default:
			if j, axis, ok := c.goalParam(name); ok {
				s.goal[2*j+axis] = k
			}
		}
	}
	s.rewardU, s.rewardT = rewardSlots(&c.reward, c.m, params)
	return s
}

// captureTangent is the scratch of one element's differentiated episode.
// Tangents are stored with the K directions innermost: dp[(2i+c)K + k].
type captureTangent struct {
	K              int
	p, v, a, f     []float64 // [N][2]
	dp, dv, da, df []float64 // [N][2][K]
	dg             []float64 // [M][2][K]
	obs, dObs      []float64 // one agent: [od], [K][od]
	act, dAct, z   []float64 // one agent: [2], [K][2], [2]
	d, dd          []float64 // [N][M], [N][M][K]
	e, de          []float64 // [N][M], [N][M][K]
	dR, dS         []float64 // [K]
}

// ReturnGradient resets the environment with seed, plays one episode with
// pol (the noise of Rollout) and returns the undiscounted return of each
// batch element and its derivatives with respect to the named parameters,
// [B][K], by forward-mode differentiation with K tangents through the
// spawn (goal positions), the observations (range sensor included), the
// policy, the physics and the reward.
//
// Non-smooth points use these subgradients: the clamp of actions into
// [-1,1]^2 and the clamp of positions at the walls pass derivatives on the
// closed interval and block them outside (an agent stopped at a wall has
// a zero position derivative across it); the capture bonus is piecewise
// constant (derivative 0); a distance of exactly 0 has derivative 0; a
// range reading takes the derivative of the nearest hit (the first agent
// on ties), or of the range when nothing is hit; min and max use the
// tie-averaged subgradient of package aggregators; contact forces are
// differentiated where they act and have derivative 0 at their cut-off.
// Afterwards the environment is in the final state that Rollout leaves.
func (c *Capture) ReturnGradient(pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	if err := selectParams(c.Name(), c.Params(), params); err != nil {
		return nil, nil, err
	}
	if err := validatePolicy(pol, c); err != nil {
		return nil, nil, err
	}
	if err := c.Reset(seed); err != nil {
		return nil, nil, err
	}
	N, M, K, od := c.n, c.m, len(params), c.od
	sl := c.slots(params)
	t := &captureTangent{K: K}
	alloc := func(n int) []float64 { return make([]float64, n) }
	t.p, t.v, t.a, t.f = alloc(2*N), alloc(2*N), alloc(2*N), alloc(2*N)
	t.dp, t.dv, t.da, t.df = alloc(2*N*K), alloc(2*N*K), alloc(2*N*K), alloc(2*N*K)
	t.dg = alloc(2 * M * K)
	t.obs, t.dObs = alloc(od), alloc(K*od)
	t.act, t.dAct, t.z = alloc(2), alloc(2*K), alloc(2)
	t.d, t.dd, t.e, t.de = alloc(N*M), alloc(N*M*K), alloc(N*M), alloc(N*M*K)
	t.dR, t.dS = alloc(K), alloc(K)
	ret, grad, err := gradientsOverBatch(c.Name(), c.b, K, func(b int, g []float64) (float64, error) {
		return c.elementGradient(b, pol, seed, sl, t, g)
	})
	c.diff.invalidate() // the efforts and rewards are now those of the gradient's episodes
	if err != nil {
		return nil, nil, err
	}
	c.steps = c.length
	for b := range c.done {
		c.done[b] = true
	}
	return ret, grad, nil
}

// elementGradient plays element b's episode with tangents, leaving its
// final state in the environment, and returns its return (gradient in g).
func (c *Capture) elementGradient(b int, pol Policy, seed int64, sl captureSlots, t *captureTangent, g []float64) (float64, error) {
	N, M, K := c.n, c.m, t.K
	copy(t.p, c.pos[b*N*2:(b+1)*N*2])
	copy(t.v, c.vel[b*N*2:(b+1)*N*2])
	goal := c.goal[b*M*2 : (b+1)*M*2]
	zero(t.dp)
	zero(t.dv)
	zero(t.dg)
	for j := 0; j < M; j++ {
		if sl.goalX >= 0 {
			t.dg[(2*j)*K+sl.goalX] = 1
		}
		for axis := 0; axis < 2; axis++ {
			if s := sl.goal[2*j+axis]; s >= 0 {
				t.dg[(2*j+axis)*K+s] = 1
			}
		}
	}
	noise := newRNG(seed, c.base+b, streamNoise)
	space := c.ActionSpace()
	ret := 0.0
	sdt := CaptureDt / CaptureSubsteps
	keep := 1 - c.drag
	for step := 0; step < c.length; step++ {
		// Observations and actions.
		for i := 0; i < N; i++ {
			c.observeTangent(t, goal, i, sl.sensorRange)
			t.z[0], t.z[1] = noise.normal(), noise.normal()
			pol.ActTangent(i, t.obs, t.dObs, t.z, t.act, t.dAct)
			if err := checkAgentAction(c.Name(), space, b, i, t.act); err != nil {
				return 0, err
			}
			for cc := 0; cc < 2; cc++ {
				t.a[2*i+cc] = t.act[cc]
				for k := 0; k < K; k++ {
					t.da[(2*i+cc)*K+k] = t.dAct[k*2+cc]
				}
			}
		}
		// Physics, as Capture.physics.
		for s := 0; s < CaptureSubsteps; s++ {
			for q := 0; q < 2*N; q++ {
				a := t.a[q]
				t.f[q] = clamp1(a) * c.force
				df, da := t.df[q*K:(q+1)*K], t.da[q*K:(q+1)*K]
				if a >= -1 && a <= 1 {
					for k := range df {
						df[k] = da[k] * c.force
					}
				} else {
					zero(df)
				}
				if sl.force >= 0 {
					df[sl.force] += clamp1(a)
				}
			}
			if c.cfg.Collisions {
				c.contactTangent(t)
			}
			for q := 0; q < 2*N; q++ {
				dv, df, dp := t.dv[q*K:(q+1)*K], t.df[q*K:(q+1)*K], t.dp[q*K:(q+1)*K]
				if s == 0 {
					old := t.v[q]
					t.v[q] = t.v[q] * keep
					for k := range dv {
						dv[k] *= keep
					}
					if sl.drag >= 0 {
						dv[sl.drag] -= old
					}
				}
				t.v[q] = t.v[q] + t.f[q]*sdt
				x := t.p[q] + t.v[q]*sdt
				for k := range dv {
					dv[k] += df[k] * sdt
				}
				bound := CaptureXBound
				if q&1 == 1 {
					bound = CaptureYBound
				}
				if x < -bound || x > bound {
					x = math.Copysign(bound, x)
					zero(dp)
					c.walls++
				} else {
					for k := range dp {
						dp[k] += dv[k] * sdt
					}
				}
				t.p[q] = x
			}
		}
		// Efforts and reward.
		r, err := c.scoreTangent(t, goal, sl)
		if err != nil {
			return 0, fmt.Errorf("simulate: capture: batch %d: %w", b, err)
		}
		ret += r
		for k := range g {
			g[k] += t.dR[k] / 10
		}
		c.rew[b] = r
	}
	copy(c.pos[b*N*2:(b+1)*N*2], t.p)
	copy(c.vel[b*N*2:(b+1)*N*2], t.v)
	copy(c.eff[b*N*M:(b+1)*N*M], t.e)
	c.observe(b, c.pos, c.vel, c.obs)
	return ret, nil
}

func zero(x []float64) {
	for k := range x {
		x[k] = 0
	}
}

// observeTangent writes agent i's observation and its [K][od] tangent.
func (c *Capture) observeTangent(t *captureTangent, goal []float64, i, sRange int) {
	M, K, od := c.m, t.K, c.od
	o, do := t.obs, t.dObs
	px, py := t.p[2*i], t.p[2*i+1]
	o[0], o[1], o[2], o[3] = px, py, t.v[2*i], t.v[2*i+1]
	for j := 0; j < M; j++ {
		o[4+2*j], o[5+2*j] = px-goal[2*j], py-goal[2*j+1]
	}
	dpx, dpy := t.dp[(2*i)*K:(2*i+1)*K], t.dp[(2*i+1)*K:(2*i+2)*K]
	dvx, dvy := t.dv[(2*i)*K:(2*i+1)*K], t.dv[(2*i+1)*K:(2*i+2)*K]
	for k := 0; k < K; k++ {
		row := do[k*od : (k+1)*od]
		row[0], row[1], row[2], row[3] = dpx[k], dpy[k], dvx[k], dvy[k]
		for j := 0; j < M; j++ {
			row[4+2*j] = dpx[k] - t.dg[(2*j)*K+k]
			row[5+2*j] = dpy[k] - t.dg[(2*j+1)*K+k]
		}
	}
	r2 := CaptureRadius * CaptureRadius
	for ray := 0; ray < c.rays; ray++ {
		col := 4 + 2*M + ray
		val, hit := c.ray(t.p, i, ray)
		o[col] = val
		if hit < 0 {
			for k := 0; k < K; k++ {
				do[k*od+col] = 0
			}
			if sRange >= 0 {
				do[sRange*od+col] = 1
			}
			continue
		}
		// dist = proj - sqrt(r² - perp²), proj = u·dir, perp² = |u|² - proj².
		ux, uy := t.p[2*hit]-px, t.p[2*hit+1]-py
		dx, dy := c.cos[ray], c.sin[ray]
		proj := ux*dx + uy*dy
		root := math.Sqrt(r2 - (ux*ux + uy*uy - proj*proj))
		for k := 0; k < K; k++ {
			dux := t.dp[(2*hit)*K+k] - dpx[k]
			duy := t.dp[(2*hit+1)*K+k] - dpy[k]
			dproj := dux*dx + duy*dy
			dperp2 := 2*(ux*dux+uy*duy) - 2*proj*dproj
			dist := dproj
			if root > 0 {
				dist += dperp2 / (2 * root)
			}
			do[k*od+col] = dist
		}
	}
}

// contactTangent adds the contact forces of Capture.contactForces and their
// tangents to t.f and t.df.
func (c *Capture) contactTangent(t *captureTangent) {
	N, K := c.n, t.K
	dmin := 2 * CaptureRadius
	p := t.p
	for i := 0; i < N; i++ {
		for j := i + 1; j < N; j++ {
			dx, dy := p[2*i]-p[2*j], p[2*i+1]-p[2*j+1]
			dist := math.Sqrt(dx*dx + dy*dy)
			if dist > dmin || dist < 1e-6 {
				continue
			}
			z := (dmin - dist) / CaptureContactGap
			pen := softplus(z) * CaptureContactGap
			s := CaptureCollision * pen / dist
			t.f[2*i] += s * dx
			t.f[2*i+1] += s * dy
			t.f[2*j] -= s * dx
			t.f[2*j+1] -= s * dy
			sig := sigmoid(z)
			for k := 0; k < K; k++ {
				ddx := t.dp[(2*i)*K+k] - t.dp[(2*j)*K+k]
				ddy := t.dp[(2*i+1)*K+k] - t.dp[(2*j+1)*K+k]
				ddist := (dx*ddx + dy*ddy) / dist
				dpen := -sig * ddist
				ds := CaptureCollision * (dpen*dist - pen*ddist) / (dist * dist)
				fx, fy := ds*dx+s*ddx, ds*dy+s*ddy
				t.df[(2*i)*K+k] += fx
				t.df[(2*i+1)*K+k] += fy
				t.df[(2*j)*K+k] -= fx
				t.df[(2*j+1)*K+k] -= fy
			}
		}
	}
}

// scoreTangent computes the efforts, their tangents, and the step reward
// with its tangent in t.dR (of R, before the division by 10).
func (c *Capture) scoreTangent(t *captureTangent, goal []float64, sl captureSlots) (float64, error) {
	N, M, K := c.n, c.m, t.K
	for i := 0; i < N; i++ {
		for j := 0; j < M; j++ {
			dx, dy := t.p[2*i]-goal[2*j], t.p[2*i+1]-goal[2*j+1]
			d := math.Sqrt(dx*dx + dy*dy)
			t.d[i*M+j] = d
			dd := t.dd[(i*M+j)*K : (i*M+j+1)*K]
			if d == 0 {
				zero(dd)
				continue
			}
			for k := range dd {
				ddx := t.dp[(2*i)*K+k] - t.dg[(2*j)*K+k]
				ddy := t.dp[(2*i+1)*K+k] - t.dg[(2*j+1)*K+k]
				dd[k] = (dx*ddx + dy*ddy) / d
			}
		}
		d, e := t.d[i*M:(i+1)*M], t.e[i*M:(i+1)*M]
		captureEfforts(d, e)
		de := t.de[i*M*K : (i+1)*M*K]
		s := 0.0
		for _, v := range d {
			s += v
		}
		if M == 1 || !(s > 0) {
			zero(de)
			continue
		}
		// r_j = (1 - d_j/S)/(M-1): dr_j = -(dd_j - (d_j/S) dS) / (S (M-1)).
		zero(t.dS)
		for j := 0; j < M; j++ {
			for k := 0; k < K; k++ {
				t.dS[k] += t.dd[(i*M+j)*K+k]
			}
		}
		inv := 1 / float64(M-1)
		for j := 0; j < M; j++ {
			q := d[j] / s
			for k := 0; k < K; k++ {
				de[j*K+k] = -(t.dd[(i*M+j)*K+k] - q*t.dS[k]) / s * inv
			}
		}
	}
	r, err := c.fn.tangent(t.e, t.de, sl.rewardU, sl.rewardT, t.dR)
	if err != nil {
		return r, err
	}
	bonus := c.bonus(t.d)
	if bonus != 0 {
		c.captures++
	}
	return r/10 + bonus, nil
}
