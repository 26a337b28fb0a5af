package gain_test

import (
	"errors"
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
