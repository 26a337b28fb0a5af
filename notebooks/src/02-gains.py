import nbgen

cells = [
("markdown", r"""
# 02 · Numerical heterogeneity gains for any aggregators

Closed forms cover a few operators; `gain.Numerical` computes $R_\mathrm{het}$, $R_\mathrm{hom}$ and $\Delta R$ for any $U$ and $T$, together with the allocations that attain them. It uses structured candidates (vertices, agent-to-task assignments, uniform rows), many seeded random starts of a projected ascent on the simplex, and smoothing tightened step by step for non-smooth operators; discrete allocations are enumerated exactly. This notebook

1. checks the numerical optima against the closed forms of notebook 01,
2. draws the softmax and power-sum gains over their parameters as heat maps (the softmax one is the paper's Figure 2, right), and
3. prints the optimal allocations for a few cells, and why they look the way they do.
"""),
("code", r"""
import (
	"fmt"
	"math"

	"../aggregators"
	"../figures"
	"../gain"
	"github.com/go-gota/gota/dataframe"
)
"""),
("markdown", r"""
## 1. Numerical against closed form

All nine $\{\min, \mathrm{mean}, \max\}^2$ pairs for a few $(N, M)$, continuous and discrete. `Difference` is numerical minus closed form.
"""),
("code", r"""
table, err := gain.NumericalTable([]int{2, 3}, []int{2, 4}, gain.ExtremePairs(), nil, nil)
if err != nil {
	panic(err)
}
worst := 0.0
for _, d := range table.Col("Difference").Float() {
	worst = math.Max(worst, math.Abs(d))
}
fmt.Printf("%d cells, largest |numerical - closed form| = %.2g\n", table.Nrow(), worst)
table.Select([]string{"U", "T", "N", "M", "Allocation", "ClosedForm", "Numerical", "Difference"})
"""),
("markdown", r"""
## 2. The softmax gain over $(t, \tau)$

Both aggregators softmax: $T$ with temperature $t$ (x axis), $U$ with temperature $\tau$ (y axis), $N = M = 2$, on a $41 \times 41$ grid. `gain.Sweep` computes the cells in parallel over the cores; every cell is seeded from its own parameters, so the picture does not depend on the number of workers.
"""),
("code", r"""
grid := make([]float64, 41)
for i := range grid {
	grid[i] = -10 + 0.5*float64(i)
}
sweep, err := gain.Sweep(gain.SweepSpec{Outer: "softmax", Inner: "softmax", OuterParams: grid, InnerParams: grid, N: 2, M: 2, Kind: gain.Continuous})
if err != nil {
	panic(err)
}
x, y, z := sweep.Grid()
figures.HeatMap("ΔR for softmax U and T, N = M = 2", "t (inner T)", "τ (outer U)", "ΔR", figures.Grid{X: x, Y: y, Z: z})
"""),
("markdown", r"""
Heterogeneity pays in the lower right: the inner aggregator rewards concentration ($t > 0$, so one specialist per task scores high) while the outer one does not reward putting everything on one task ($\tau$ small). For $t \le 0$ the gain is zero, as Theorem 3.4 (i) says. How far above the theorem's lower bound is the true gain?
"""),
("code", r"""
above := make([][]float64, len(z))
minGap := 1.0
for i := range z {
	above[i] = make([]float64, len(z[i]))
	for j := range z[i] {
		above[i][j] = z[i][j] - sweep.Bound[i][j]
		if above[i][j] < minGap {
			minGap = above[i][j]
		}
	}
}
fmt.Printf("smallest ΔR - bound over the grid: %.2g (never negative: the bound holds)\n", minGap)
figures.HeatMap("ΔR minus the Theorem 3.4 lower bound, N = M = 2", "t (inner T)", "τ (outer U)", "ΔR - bound", figures.Grid{X: x, Y: y, Z: above})
"""),
("markdown", r"""
## 3. The power-sum gain

$T(x) = \sum_i x_i^{t}$ and $U(y) = \sum_j y_j^{\tau}$: $T$ is Schur-convex for $t > 1$, $U$ concave for $\tau < 1$. Corollary F.1 predicts $\Delta R > 0$ when both hold.
"""),
("code", r"""
ps := make([]float64, 24)
for i := range ps {
	ps[i] = 0.25 + 0.125*float64(i)
}
power, err := gain.Sweep(gain.SweepSpec{Outer: "powersum", Inner: "powersum", OuterParams: ps, InnerParams: ps, N: 2, M: 2, Kind: gain.Continuous})
if err != nil {
	panic(err)
}
px, py, pz := power.Grid()
figures.HeatMap("ΔR for power-sum U and T, N = M = 2", "t (inner T)", "τ (outer U)", "ΔR", figures.Grid{X: px, Y: py, Z: pz})
"""),
("markdown", r"""
## 4. The optimal allocations

`gain.Numerical` returns the allocations that attain $R_\mathrm{het}$ (an $N \times M$ matrix) and $R_\mathrm{hom}$ (one row $c$ that every agent plays).
"""),
("code", r"""
cases := [][2]string{
	{"softmax(-5)", "softmax(5)"},
	{"softmax(5)", "softmax(5)"},
	{"softmax(5)", "softmax(-5)"},
	{"powersum(0.5)", "powersum(3)"},
	{"min", "max"},
}
for _, c := range cases {
	u, t := aggregators.MustParse(c[0]), aggregators.MustParse(c[1])
	g, err := gain.Numerical(aggregators.NewReward(u, t), 3, 3, gain.Continuous, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("U = %-14v T = %-12v ΔR = %.4f\n    A_het = %s  (R_het = %.4f)\n    c_hom = %s  (R_hom = %.4f)\n",
		u, t, g.Delta, gain.FormatAllocation(g.HetAlloc), g.Het, gain.FormatAllocation(g.HomRow), g.Hom)
}
"""),
("markdown", r"""
Why they look this way:

- **$U$ = softmax(−5), $T$ = softmax(5)**: $T$ rewards a column with one large effort, $U$ rewards tasks scoring alike. The heterogeneous optimum is a permutation matrix, one specialist per task. A homogeneous team spreads evenly, $c = (1/3, 1/3, 1/3)$, and each task only scores $1/3$.
- **softmax(5) for both**: $U$ now rewards one outstanding task, so the homogeneous team puts everything on one task. The heterogeneous team does slightly better by sending one agent to a second task: a softmax-weighted mean at $\tau = 5$ still gives the second score weight, and that score, from a one-hot column under $T$ = softmax(5), is almost 1. The gain is tiny: 0.0016.
- **$U$ = softmax(5), $T$ = softmax(−5)**: $\Delta R = 0$, but not by Theorem 3.2: at $N = 3$, $|t| = 5$ is past $t^*(3) \approx 2.37$, so $T$ is neither Schur-convex nor Schur-concave on $[0,1]^3$, and not monotone either. A softmax mean with $t \le 0$ is at most the column's mean (Chebyshev's sum inequality), so a homogeneous team reaches every score vector a heterogeneous one does (Theorem 3.4 (i), which the paper states for $N = M$, as here).
- **Power sums (τ = 0.5, t = 3)**: a convex $T$ and a concave $U$, the case of Corollary F.1. Specialists again, and here the homogeneous optimum is the trivial one: every agent on one task, $R_\mathrm{hom} = \sqrt{3}$.
- **min∘max**: the closed form's allocation, one agent fully on each task; a homogeneous team can only reach $1/M$ on every task.
"""),
]

nbgen.write("../02-gains.ipynb", cells)
