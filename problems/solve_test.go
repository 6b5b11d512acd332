package problems

import (
	"fmt"

	"tengen"
	"tengen/goban"
	"tengen/tsumego"
)

// position returns the solver's view of a problem.
func position(p *tengen.Problem) (tsumego.Position, error) {
	b, err := goban.NewBoard(p.Size, p.Size)
	if err != nil {
		return tsumego.Position{}, err
	}
	if err := b.Setup(goban.Black, p.Black...); err != nil {
		return tsumego.Position{}, err
	}
	if err := b.Setup(goban.White, p.White...); err != nil {
		return tsumego.Position{}, err
	}
	return tsumego.Position{Board: b, Region: p.Region, Target: p.Target, ToMove: p.ToPlay}, nil
}

// wanted is the result the right moves must reach.
func wanted(p *tengen.Problem) tsumego.Result {
	if p.Ko {
		return tsumego.Ko
	}
	return tsumego.Win
}

func moveKey(pass bool, pt goban.Point) string {
	if pass {
		return "pass"
	}
	return fmt.Sprint(pt)
}
