package smoke_test

import (
	"fmt"

	"github.com/hetgain/hetgain/smoke"
)

func ExampleSquares() {
	fmt.Println(smoke.Squares(4))
	// Output: [0 1 4 9]
}
