package figures

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"gonum.org/v1/plot"
)

// TestTickLabelsExact checks, on axes of many ranges, that the ticks are
// DefaultTicks' and that every labelled tick's label reads back as its
// value, to a millionth of the step between labels, and differs from the
// others. DefaultTicks rounded about one label in five past its value, as
// 0.4875 to "0.487"; the cases named below are such.
func TestTickLabelsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	ranges := [][2]float64{{0.485, 0.49}, {0.4962, 0.4973}, {4604.629545896166, 4604.767674932418},
		{3.6215662478514177, 3.6270398009023976}, {-1.8076344423001467, -1.8076333882852857}, {-1, 3}, {0, 1e7 + 5e5}, {-2e-7, 3e-7}}
	for len(ranges) < 5000 {
		lo := (2*rng.Float64() - 1) * math.Pow(10, float64(rng.Intn(16)-8))
		hi := lo + math.Pow(10, 16*rng.Float64()-8)
		if hi-lo >= 1e-8*math.Max(math.Abs(lo), math.Abs(hi)) {
			ranges = append(ranges, [2]float64{lo, hi})
		}
	}
	for _, r := range ranges {
		got, want := (ticks{}).Ticks(r[0], r[1]), (plot.DefaultTicks{}).Ticks(r[0], r[1])
		if len(got) != len(want) {
			t.Fatalf("[%v, %v]: %d ticks, want DefaultTicks' %d", r[0], r[1], len(got), len(want))
		}
		checkLabelsExact(t, r, got, want)
	}
}

// checkLabelsExact checks the ticks got of the axis r against want,
// DefaultTicks': the same values, labelled at the same places, each
// label reading back as its value and no two alike.
func checkLabelsExact(t *testing.T, r [2]float64, got, want []plot.Tick) {
	t.Helper()
	step := r[1] - r[0]
	for i := 1; i < len(want); i++ {
		if want[i].Label != "" && want[i-1].Label != "" {
			step = math.Min(step, want[i].Value-want[i-1].Value)
		}
	}
	seen := map[string]bool{}
	for i, tk := range got {
		if tk.Value != want[i].Value || (tk.Label == "") != (want[i].Label == "") {
			t.Errorf("[%v, %v]: tick %d is %v, want at DefaultTicks' %v", r[0], r[1], i, tk, want[i])
			continue
		}
		if tk.Label == "" {
			continue
		}
		v, err := strconv.ParseFloat(tk.Label, 64)
		if err != nil || math.Abs(v-tk.Value) > 1e-6*step || seen[tk.Label] || v == 0 && math.Signbit(v) {
			t.Errorf("[%v, %v]: tick at %v labelled %q (steps of %v; DefaultTicks: %q)", r[0], r[1], tk.Value, tk.Label, step, want[i].Label)
		}
		seen[tk.Label] = true
	}
}
