package simulate

import "math"

// The spawn rules of the embodied environments: entities drawn uniformly in
// an area, pairwise at least a gap apart (and, in Tag, clear of the
// obstacles), by rejection sampling; where that fails, on a lattice.

// spawnArea is a rectangle [x0,x1]x[y0,y1] (a segment when x0 = x1) in
// which entities spawn at least gap apart.
type spawnArea struct{ x0, x1, y0, y1, gap float64 }

// at returns the area moved to x (for the goals' line).
func (a spawnArea) at(x float64) spawnArea { a.x0, a.x1 = x, x; return a }

// nodes returns the number of nodes of the square lattice of spacing gap
// laid over the area from its corner (x0, y0).
func (a spawnArea) nodes() int {
	cols, rows := a.lattice()
	return cols * rows
}

func (a spawnArea) lattice() (cols, rows int) {
	return 1 + int(math.Floor((a.x1-a.x0)/a.gap)), 1 + int(math.Floor((a.y1-a.y0)/a.gap))
}

// placeApart draws k points uniformly in the area, pairwise at least its
// gap apart, by rejection sampling with restarts. If that fails, as it can
// for a crowded spawn, it falls back to placeOnLattice, and reports false
// only if that fails too (more points than lattice nodes).
func placeApart(r *rng, out []float64, k int, a spawnArea) bool {
	draw := func(r *rng) (x, y float64) {
		x, y = a.x0, r.uniform(a.y0, a.y1)
		if a.x1 > a.x0 {
			x = r.uniform(a.x0, a.x1)
		}
		return x, y
	}
	return sampleApart(r, out, k, a.gap, nil, 0, draw) || placeOnLattice(r, out, k, a, nil, 0)
}

// placeClear draws k points uniformly in [-span, span]^2, pairwise at least
// gap apart and at least clear from every point of avoid, by rejection
// sampling with restarts (as placeApart, without the lattice).
func placeClear(r *rng, out []float64, k int, span, gap float64, avoid []float64, clear float64) bool {
	draw := func(r *rng) (x, y float64) {
		x = r.uniform(-span, span)
		return x, r.uniform(-span, span)
	}
	return sampleApart(r, out, k, gap, avoid, clear, draw)
}

// sampleApart is the rejection sampling of placeApart and placeClear: it
// draws each point with draw until it is gap from those placed and clear
// from avoid, at most captureMaxTries times, and starts over, at most
// captureRestarts times, when a point cannot be placed.
func sampleApart(r *rng, out []float64, k int, gap float64, avoid []float64, clear float64, draw func(*rng) (x, y float64)) bool {
	for attempt := 0; attempt < captureRestarts; attempt++ {
		ok := true
		for e := 0; e < k && ok; e++ {
			ok = false
			for try := 0; try < captureMaxTries; try++ {
				x, y := draw(r)
				if farFrom(x, y, out[:2*e], gap) && farFrom(x, y, avoid, clear) {
					out[2*e], out[2*e+1] = x, y
					ok = true
					break
				}
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// farFrom reports whether (x, y) is at least d from every point of the flat
// [K][2] list pts.
func farFrom(x, y float64, pts []float64, d float64) bool {
	for o := 0; 2*o < len(pts); o++ {
		if dx, dy := x-pts[2*o], y-pts[2*o+1]; dx*dx+dy*dy < d*d {
			return false
		}
	}
	return true
}

// placeOnLattice puts the k points on distinct nodes, drawn at random, of
// the area's lattice (see spawnArea.nodes) that are at least clear from
// every point of avoid, or reports false if there are fewer than k such
// nodes.
func placeOnLattice(r *rng, out []float64, k int, a spawnArea, avoid []float64, clear float64) bool {
	cols, rows := a.lattice()
	var free [][2]float64
	for node := 0; node < cols*rows; node++ {
		x, y := a.x0+a.gap*float64(node%cols), a.y0+a.gap*float64(node/cols)
		if farFrom(x, y, avoid, clear) {
			free = append(free, [2]float64{x, y})
		}
	}
	if len(free) < k {
		return false
	}
	for e := 0; e < k; e++ { // the first k steps of a Fisher-Yates shuffle
		j := e + int(r.float64()*float64(len(free)-e))
		free[e], free[j] = free[j], free[e]
		out[2*e], out[2*e+1] = free[e][0], free[e][1]
	}
	return true
}

// blockedNodes returns the most nodes of a square lattice of spacing gap
// that can lie closer than clear to one point, found by moving the point
// over a 100 x 100 grid of one lattice cell: a count of nodes in an open
// disc keeps its value on an open set of centres, so the grid finds the
// largest.
func blockedNodes(gap, clear float64) int {
	r := clear / gap // in units of the spacing
	reach := int(math.Ceil(r)) + 1
	most := 0
	for a := 0; a < 100; a++ {
		for b := 0; b < 100; b++ {
			cx, cy := float64(a)/100, float64(b)/100
			n := 0
			for i := -reach; i <= reach; i++ {
				for j := -reach; j <= reach; j++ {
					if dx, dy := float64(i)-cx, float64(j)-cy; dx*dx+dy*dy < r*r {
						n++
					}
				}
			}
			most = max(most, n)
		}
	}
	return most
}
