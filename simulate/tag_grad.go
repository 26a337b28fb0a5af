package simulate

import (
	"fmt"
	"math"
)

// tagSlots holds the tangent index of each parameter (-1 when not
// selected).
type tagSlots struct {
	drag, force, escForce, chaserSpeed, escSpeed int
	obsRadius, shaping, penalty                  int
	rewardU                                      int
	rewardT                                      []int
}

func (g *Tag) slots(params []string) tagSlots {
	s := tagSlots{drag: -1, force: -1, escForce: -1, chaserSpeed: -1, escSpeed: -1, obsRadius: -1, shaping: -1, penalty: -1}
	for k, name := range params {
		switch name {
		case "drag":
			s.drag = k
		case "force":
			s.force = k
		case "escaper.force":
			s.escForce = k
		case "chaser.speed":
			s.chaserSpeed = k
		case "escaper.speed":
			s.escSpeed = k
		case "obstacle.radius":
			s.obsRadius = k
		case "shaping":
			s.shaping = k
		case "penalty":
			s.penalty = k
		}
	}
	s.rewardU, s.rewardT = rewardSlots(&g.reward, g.m, params)
	return s
}

// tagTangent is the scratch of one element's differentiated episode.
// Tangents are stored with the K directions innermost: dp[(2e+c)K + k].
type tagTangent struct {
	K          int
	p, v, f    []float64 // [N+M][2]
	dp, dv, df []float64 // [N+M][2][K]
	obs, dObs  []float64 // one chaser: [od], [K][od]
	act, dAct  []float64 // one chaser: [2], [K][2]
	z          []float64 // [2]
	e, de      []float64 // [N][M], [N][M][K] (de stays 0)
	dR, dDist  []float64 // [K]
	dh, dn     []float64 // [2][K] scratch
}

// ReturnGradient resets the environment with seed, plays one episode with
// pol (the noise of Rollout) and returns the undiscounted return of each
// batch element and its derivatives with respect to the named parameters,
// [B][K], by forward-mode differentiation with K tangents through the
// observations, the policy, the escaper heuristic, the physics (drag,
// forces, speed caps, obstacle contacts) and the reward.
//
// The capture matrix is piecewise constant in θ: it contributes to the
// gradient only through the aggregator parameters ("U.t", "T.t", ...),
// whose derivatives package aggregators gives at the current 0/1 matrix
// (ParamDerivative), and the collision count likewise only through
// "penalty". Non-smooth points use these subgradients: the clamp of
// actions into [-1,1]^2 and the clamp of positions at the walls pass
// derivatives on the closed interval and block them outside (an agent
// stopped at a wall has a zero position derivative across it); a speed
// cap is differentiated as the projection v·cap/|v| when |v| > cap and as
// the identity otherwise; an obstacle contact is differentiated as the
// radial projection onto the obstacle's circle (and the removal of the
// inward velocity) when the agent's centre is strictly inside it and as
// the identity otherwise; the distance to the nearest escaper follows the
// first nearest on ties; a distance of exactly 0 has derivative 0; min and
// max in the reward use the tie-averaged subgradient of package
// aggregators; a policy's own non-smooth points (TagChaser's choice of
// the nearest escaper) are held fixed. Afterwards the environment is in
// the final state that Rollout leaves (positions, velocities, efforts,
// observations and the team Reward of the last step) but for
// AgentRewards and DifferenceRewards, which stay Reset's zeros: the
// gradient's episodes score the team reward only.
func (g *Tag) ReturnGradient(pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	if err := selectParams(g.Name(), g.Params(), params); err != nil {
		return nil, nil, err
	}
	if err := validatePolicy(pol, g); err != nil {
		return nil, nil, err
	}
	if err := g.Reset(seed); err != nil {
		return nil, nil, err
	}
	N, M, E, K, od := g.n, g.m, g.ne, len(params), g.od
	sl := g.slots(params)
	t := &tagTangent{K: K}
	alloc := func(n int) []float64 { return make([]float64, n) }
	t.p, t.v, t.f = alloc(2*E), alloc(2*E), alloc(2*E)
	t.dp, t.dv, t.df = alloc(2*E*K), alloc(2*E*K), alloc(2*E*K)
	t.obs, t.dObs = alloc(od), alloc(K*od)
	t.act, t.dAct, t.z = alloc(2), alloc(2*K), alloc(2)
	t.e, t.de = alloc(N*M), alloc(N*M*K)
	t.dR, t.dDist = alloc(K), alloc(K)
	t.dh, t.dn = alloc(2*K), alloc(2*K)
	ret, grad, err := gradientsOverBatch(g.Name(), g.b, K, func(b int, gr []float64) (float64, error) {
		return g.elementGradient(b, pol, seed, sl, t, gr)
	})
	if err != nil {
		return nil, nil, err
	}
	g.steps = g.length
	for b := range g.done {
		g.done[b] = true
	}
	return ret, grad, nil
}

// elementGradient plays element b's episode with tangents, leaving its
// final state in the environment, and returns its return (gradient in gr).
func (g *Tag) elementGradient(b int, pol Policy, seed int64, sl tagSlots, t *tagTangent, gr []float64) (float64, error) {
	N, M, E, K := g.n, g.m, g.ne, t.K
	copy(t.p, g.pos[b*E*2:(b+1)*E*2])
	copy(t.v, g.vel[b*E*2:(b+1)*E*2])
	copy(t.e, g.eff[b*N*M:(b+1)*N*M])
	zero(t.dp)
	zero(t.dv)
	obst := g.obst[b*g.o*2 : (b+1)*g.o*2]
	noise := newRNG(seed, g.base+b, streamNoise)
	space := g.ActionSpace()
	ret := 0.0
	for step := 0; step < g.length; step++ {
		// Chaser observations, actions and forces.
		for i := 0; i < N; i++ {
			g.observeTangent(t, obst, i)
			t.z[0], t.z[1] = noise.normal(), noise.normal()
			pol.ActTangent(i, t.obs, t.dObs, t.z, t.act, t.dAct)
			if err := checkAgentAction(g.Name(), space, b, i, t.act); err != nil {
				return 0, err
			}
			for c := 0; c < 2; c++ {
				q := 2*i + c
				a := t.act[c]
				t.f[q] = clamp1(a) * g.force
				df := t.df[q*K : (q+1)*K]
				if a >= -1 && a <= 1 {
					for k := range df {
						df[k] = t.dAct[k*2+c] * g.force
					}
				} else {
					zero(df)
				}
				if sl.force >= 0 {
					df[sl.force] += clamp1(a)
				}
			}
		}
		// Escaper forces, from the same state.
		for j := 0; j < M; j++ {
			g.fleeTangent(t, obst, j, sl)
		}
		g.physicsTangent(t, obst, sl)
		r, err := g.scoreTangent(t, sl, gr)
		if err != nil {
			return 0, fmt.Errorf("simulate: tag: batch %d: %w", b, err)
		}
		ret += r
		g.rew[b] = r
	}
	copy(g.pos[b*E*2:(b+1)*E*2], t.p)
	copy(g.vel[b*E*2:(b+1)*E*2], t.v)
	copy(g.eff[b*N*M:(b+1)*N*M], t.e)
	g.observe(b, g.pos, g.vel, g.obs)
	return ret, nil
}

// observeTangent writes chaser i's observation and its [K][od] tangent
// (obstacles are fixed).
func (g *Tag) observeTangent(t *tagTangent, obst []float64, i int) {
	N, M, K, od := g.n, g.m, t.K, g.od
	do := t.dObs
	g.observeChaser(t.obs, t.p, t.v, obst, i)
	dp, dv := t.dp, t.dv
	dpx, dpy := dp[(2*i)*K:(2*i+1)*K], dp[(2*i+1)*K:(2*i+2)*K]
	dvx, dvy := dv[(2*i)*K:(2*i+1)*K], dv[(2*i+1)*K:(2*i+2)*K]
	for k := 0; k < K; k++ {
		row := do[k*od : (k+1)*od]
		row[0], row[1], row[2], row[3] = dpx[k], dpy[k], dvx[k], dvy[k]
		c := 4
		for j := 0; j < M; j++ {
			q := N + j
			row[c], row[c+1] = dp[(2*q)*K+k]-dpx[k], dp[(2*q+1)*K+k]-dpy[k]
			c += 2
		}
		for q := 0; q < N; q++ {
			if q != i {
				row[c], row[c+1] = dp[(2*q)*K+k]-dpx[k], dp[(2*q+1)*K+k]-dpy[k]
				c += 2
			}
		}
		for q := 0; 2*q < len(obst); q++ {
			row[c], row[c+1] = -dpx[k], -dpy[k]
			c += 2
		}
		for j := 0; j < M; j++ {
			q := N + j
			row[c], row[c+1] = dv[(2*q)*K+k], dv[(2*q+1)*K+k]
			c += 2
		}
	}
}

// fleeTangent writes escaper j's heuristic force (as Tag.flee) and its
// tangent into t.f and t.df.
func (g *Tag) fleeTangent(t *tagTangent, obst []float64, j int, sl tagSlots) {
	N, K := g.n, t.K
	e := N + j
	p, dp := t.p, t.dp
	fx, fy := g.flee(p, obst, j)
	t.f[2*e], t.f[2*e+1] = fx, fy
	x, y := p[2*e], p[2*e+1]
	dex, dey := dp[(2*e)*K:(2*e+1)*K], dp[(2*e+1)*K:(2*e+2)*K]
	dhx, dhy := t.dh[:K], t.dh[K:]
	// Centre spring.
	hx, hy := -tagCentre*x, -tagCentre*y
	for k := 0; k < K; k++ {
		dhx[k], dhy[k] = -tagCentre*dex[k], -tagCentre*dey[k]
	}
	// Chasers: u/|u|^2 has derivative du/|u|^2 - 2 u (u·du)/|u|^4.
	for i := 0; i < N; i++ {
		dx, dy := x-p[2*i], y-p[2*i+1]
		d2 := dx*dx + dy*dy
		if !(d2 > 0) {
			continue
		}
		hx += tagFlee * dx / d2
		hy += tagFlee * dy / d2
		dix, diy := dp[(2*i)*K:(2*i+1)*K], dp[(2*i+1)*K:(2*i+2)*K]
		for k := 0; k < K; k++ {
			ux, uy := dex[k]-dix[k], dey[k]-diy[k]
			dot := 2 * (dx*ux + dy*uy) / d2
			dhx[k] += tagFlee * (ux - dx*dot) / d2
			dhy[k] += tagFlee * (uy - dy*dot) / d2
		}
	}
	// Obstacles: s u with s = A exp(-(d - reach)/λ)/d.
	reach := g.obsRadius + TagEscaperRadius
	for o := 0; 2*o < len(obst); o++ {
		dx, dy := x-obst[2*o], y-obst[2*o+1]
		d := math.Sqrt(dx*dx + dy*dy)
		if !(d > 0) {
			continue
		}
		s := tagAvoid * math.Exp(-(d-reach)/tagReach) / d
		hx += s * dx
		hy += s * dy
		for k := 0; k < K; k++ {
			dd := (dx*dex[k] + dy*dey[k]) / d
			dReach := 0.0
			if k == sl.obsRadius {
				dReach = 1
			}
			ds := s * (-(dd-dReach)/tagReach - dd/d)
			dhx[k] += ds*dx + s*dex[k]
			dhy[k] += ds*dy + s*dey[k]
		}
	}
	// Walls: C (1/a - a), a = exp(x/λ).
	ax, ay := math.Exp(x/tagReach), math.Exp(y/tagReach)
	hx += tagWallC * (1/ax - ax)
	hy += tagWallC * (1/ay - ay)
	wx, wy := -tagWallC*(1/ax+ax)/tagReach, -tagWallC*(1/ay+ay)/tagReach
	for k := 0; k < K; k++ {
		dhx[k] += wx * dex[k]
		dhy[k] += wy * dey[k]
	}
	// f = F h / sqrt(1 + |h|^2).
	n2 := 1 + hx*hx + hy*hy
	root := math.Sqrt(n2)
	q := g.escForce / root
	dfx, dfy := t.df[(2*e)*K:(2*e+1)*K], t.df[(2*e+1)*K:(2*e+2)*K]
	for k := 0; k < K; k++ {
		hd := (hx*dhx[k] + hy*dhy[k]) / n2
		dfx[k] = q * (dhx[k] - hx*hd)
		dfy[k] = q * (dhy[k] - hy*hd)
	}
	if sl.escForce >= 0 {
		dfx[sl.escForce] += hx / root
		dfy[sl.escForce] += hy / root
	}
}

// physicsTangent advances t.p and t.v by one step as Tag.physics, with
// their tangents, and records obstacle pushes in g.pushed.
func (g *Tag) physicsTangent(t *tagTangent, obst []float64, sl tagSlots) {
	E, K := g.ne, t.K
	sdt := TagDt / TagSubsteps
	keep := 1 - g.drag
	p, v, f := t.p, t.v, t.f
	for e := range g.pushed {
		g.pushed[e] = false
	}
	dnx, dny := t.dn[:K], t.dn[K:]
	for s := 0; s < TagSubsteps; s++ {
		for e := 0; e < E; e++ {
			dvx, dvy := t.dv[(2*e)*K:(2*e+1)*K], t.dv[(2*e+1)*K:(2*e+2)*K]
			dpx, dpy := t.dp[(2*e)*K:(2*e+1)*K], t.dp[(2*e+1)*K:(2*e+2)*K]
			dfx, dfy := t.df[(2*e)*K:(2*e+1)*K], t.df[(2*e+1)*K:(2*e+2)*K]
			vx, vy := v[2*e], v[2*e+1]
			if s == 0 {
				for k := 0; k < K; k++ {
					dvx[k] *= keep
					dvy[k] *= keep
				}
				if sl.drag >= 0 {
					dvx[sl.drag] -= vx
					dvy[sl.drag] -= vy
				}
				vx, vy = vx*keep, vy*keep
			}
			vx, vy = vx+f[2*e]*sdt, vy+f[2*e+1]*sdt
			for k := 0; k < K; k++ {
				dvx[k] += dfx[k] * sdt
				dvy[k] += dfy[k] * sdt
			}
			vmax, slot := g.chaserSpeed, sl.chaserSpeed
			if e >= g.n {
				vmax, slot = g.escSpeed, sl.escSpeed
			}
			if sp2 := vx*vx + vy*vy; sp2 > vmax*vmax {
				sp := math.Sqrt(sp2)
				sc := vmax / sp
				ux, uy := vx/sp, vy/sp
				for k := 0; k < K; k++ {
					rad := ux*dvx[k] + uy*dvy[k]
					dvx[k] = sc * (dvx[k] - ux*rad)
					dvy[k] = sc * (dvy[k] - uy*rad)
				}
				if slot >= 0 {
					dvx[slot] += ux
					dvy[slot] += uy
				}
				vx, vy = vx*sc, vy*sc
				g.caps++
			}
			x, y := p[2*e]+vx*sdt, p[2*e+1]+vy*sdt
			for k := 0; k < K; k++ {
				dpx[k] += dvx[k] * sdt
				dpy[k] += dvy[k] * sdt
			}
			reach := g.obsRadius + g.radius(e)
			for o := 0; 2*o < len(obst); o++ {
				dx, dy := x-obst[2*o], y-obst[2*o+1]
				d2 := dx*dx + dy*dy
				if !(d2 < reach*reach) || d2 == 0 {
					continue
				}
				d := math.Sqrt(d2)
				nx, ny := dx/d, dy/d
				// n = u/|u|: dn = (du - n (n·du))/d; p = o + reach n.
				for k := 0; k < K; k++ {
					rad := nx*dpx[k] + ny*dpy[k]
					dnx[k] = (dpx[k] - nx*rad) / d
					dny[k] = (dpy[k] - ny*rad) / d
					dpx[k] = reach * dnx[k]
					dpy[k] = reach * dny[k]
				}
				if sl.obsRadius >= 0 {
					dpx[sl.obsRadius] += nx
					dpy[sl.obsRadius] += ny
				}
				x, y = obst[2*o]+reach*nx, obst[2*o+1]+reach*ny
				if vn := vx*nx + vy*ny; vn < 0 {
					// v - (v·n) n.
					for k := 0; k < K; k++ {
						dvn := dvx[k]*nx + dvy[k]*ny + vx*dnx[k] + vy*dny[k]
						dvx[k] -= dvn*nx + vn*dnx[k]
						dvy[k] -= dvn*ny + vn*dny[k]
					}
					vx, vy = vx-vn*nx, vy-vn*ny
				}
				g.pushed[e] = true
				g.contacts++
			}
			if x < -TagBound || x > TagBound {
				x = clampBound(x)
				zero(dpx)
				g.walls++
			}
			if y < -TagBound || y > TagBound {
				y = clampBound(y)
				zero(dpy)
				g.walls++
			}
			v[2*e], v[2*e+1], p[2*e], p[2*e+1] = vx, vy, x, y
		}
	}
}

// scoreTangent computes the efforts (into t.e, from the previous ones) and
// the step's reward, as Tag.score, and adds the reward's tangent to gr.
func (g *Tag) scoreTangent(t *tagTangent, sl tagSlots, gr []float64) (float64, error) {
	N, M, K := g.n, g.m, t.K
	p, dp := t.p, t.dp
	zero(t.dDist)
	dist := 0.0
	for i := 0; i < N; i++ {
		for j := 0; j < M; j++ {
			if g.caught(p, i, j) {
				if t.e[i*M+j] == 0 {
					g.captures++
				}
				t.e[i*M+j] = 1
			} else if g.cfg.PerStep {
				t.e[i*M+j] = 0
			}
		}
		d, j := g.nearest(p, i)
		dist += d
		if d > 0 {
			e := N + j
			dx, dy := p[2*i]-p[2*e], p[2*i+1]-p[2*e+1]
			for k := 0; k < K; k++ {
				ddx := dp[(2*i)*K+k] - dp[(2*e)*K+k]
				ddy := dp[(2*i+1)*K+k] - dp[(2*e+1)*K+k]
				t.dDist[k] += (dx*ddx + dy*ddy) / d
			}
		}
	}
	r, err := g.fn.tangent(t.e, t.de, sl.rewardU, sl.rewardT, t.dR)
	if err != nil {
		return r, err
	}
	coll := float64(g.collisions(p))
	fN := float64(N)
	for k := range gr {
		gr[k] += t.dR[k] - g.shaping*t.dDist[k]/fN
	}
	if sl.shaping >= 0 {
		gr[sl.shaping] -= dist / fN
	}
	if sl.penalty >= 0 {
		gr[sl.penalty] -= coll
	}
	return -g.shaping*dist/fN + r - g.penalty*coll, nil
}
