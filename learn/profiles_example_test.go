package learn_test

import (
	"fmt"
	"strings"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// ExampleReadProfiles reads a table of effort profiles as hetgain inspect
// -csv writes it and names the teams of specialists.
func ExampleReadProfiles() {
	const table = `run,team,iteration,episodes,steps,return,effort_1_1,effort_1_2,effort_2_1,effort_2_2,covered_0,covered_1,covered_2,diversity
2v2/min-mean/seed3,heterogeneous,300,512,51200,11.67,0.241,0.031,0.028,0.560,0.5,0.27,0.23,0.31
2v2/min-mean/seed3,homogeneous,300,512,51200,0.76,0.189,0.174,0.182,0.175,0.57,0.42,0.01,0.08
`
	rows, err := learn.ReadProfiles(strings.NewReader(table))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%s %s: return %.2f, specialists %v\n", r.Run, r.Team, r.Profile.Return, r.Profile.Specialists(simulate.SpecialistRatio))
	}
	// Output:
	// 2v2/min-mean/seed3 heterogeneous: return 11.67, specialists [0 1]
	// 2v2/min-mean/seed3 homogeneous: return 0.76, specialists []
}
