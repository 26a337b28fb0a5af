package gain_test

import (
	"errors"
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// TestLevelForagingBruteForce enumerates every agent's choice of item (or
// none) for N <= 7, M <= 4 and levels 1..4.
func TestLevelForagingBruteForce(t *testing.T) {
	for level := 1; level <= 4; level++ {
		r := aggregators.NewReward(aggregators.Sum{}, aggregators.LevelThreshold{L: float64(level)})
		for m := 1; m <= 4; m++ {
			rows := append([][]float64{make([]float64, m)}, oneHotRows(m)...)
			for n := 1; n <= 7; n++ {
				het, hom := bestOverRows(t, r, n, rows)
				g, err := gain.LevelForaging(n, m, level)
				if err != nil {
					t.Fatal(err)
				}
				if g.Het != het || g.Hom != hom || g.Delta != het-hom {
					t.Errorf("L = %d, N = %d, M = %d: (%v, %v), brute force (%v, %v)", level, n, m, g.Het, g.Hom, het, hom)
				}
				if v := reward(t, r, g.HetAlloc); v != g.Het {
					t.Errorf("L = %d, N = %d, M = %d: R(HetAlloc) = %v, want %v", level, n, m, v, g.Het)
				}
				if v := reward(t, r, g.HomAlloc()); v != g.Hom {
					t.Errorf("L = %d, N = %d, M = %d: R(HomAlloc) = %v, want %v", level, n, m, v, g.Hom)
				}
				// The paper's L·(min(M, N/L) − 1), stated for L dividing N.
				if n%level == 0 {
					if paper := float64(level * (min(m, n/level) - 1)); g.Delta != paper {
						t.Errorf("L = %d, N = %d, M = %d: ΔR = %v, paper %v", level, n, m, g.Delta, paper)
					}
				}
			}
		}
	}
}

func TestLevelForagingErrors(t *testing.T) {
	for _, c := range [][3]int{{0, 2, 1}, {2, 0, 1}, {2, 2, 0}, {-1, -1, -1}} {
		if _, err := gain.LevelForaging(c[0], c[1], c[2]); !errors.Is(err, gain.ErrSize) {
			t.Errorf("LevelForaging%v: err = %v, want ErrSize", c, err)
		}
	}
}

// FuzzLevelForaging checks LevelForaging for any sizes and level: ErrSize
// exactly when one is below 1; otherwise R_hom is L if N >= L and else 0,
// R_het is a whole number of items' pay L, at most M of them and at most
// floor(N/L) (groups of L agents), at least R_hom, and ΔR their difference; and where the
// allocations are built (small sizes), R(HetAlloc) = R_het and
// R(HomAlloc) = R_hom.
func FuzzLevelForaging(f *testing.F) {
	for _, s := range [][3]int{{4, 2, 2}, {7, 3, 2}, {1, 1, 1}, {3, 5, 4}, {0, 2, 1}, {2, 2, -1},
		{math.MaxInt, math.MaxInt, 1}, {math.MaxInt, 3, math.MaxInt}, {1 << 40, 1 << 20, 3}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, n, m, level int) {
		g, err := gain.LevelForaging(n, m, level)
		if n < 1 || m < 1 || level < 1 {
			if !errors.Is(err, gain.ErrSize) {
				t.Fatalf("LevelForaging(%d, %d, %d): err = %v, want ErrSize", n, m, level, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		L := float64(level)
		wantHom := 0.0
		if n >= level {
			wantHom = L
		}
		items := g.Het / L // exact up to rounding, which the bounds allow for
		most := float64(min(m, n/level)) * (1 + 1e-15)
		if g.Hom != wantHom || items != math.Trunc(items) || items > most || g.Het < g.Hom || g.Delta != g.Het-g.Hom {
			t.Fatalf("LevelForaging(%d, %d, %d) = Het %v, Hom %v, Delta %v", n, m, level, g.Het, g.Hom, g.Delta)
		}
		if g.HetAlloc == nil || g.HomRow == nil {
			return
		}
		r := aggregators.NewReward(aggregators.Sum{}, aggregators.LevelThreshold{L: L})
		if v := reward(t, r, g.HetAlloc); v != g.Het {
			t.Errorf("R(HetAlloc) = %v, want %v", v, g.Het)
		}
		if v := reward(t, r, g.HomAlloc()); v != g.Hom {
			t.Errorf("R(HomAlloc) = %v, want %v", v, g.Hom)
		}
	})
}
