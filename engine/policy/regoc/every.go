package regoc

import (
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// `every k, v in domain { body }` follows topdown's evalEvery: a domain that
// is not an array, an object or a set makes the expression fail; otherwise
// each member (in topdown's order) binds k and v and the body must have a
// solution, looked for only up to the first (topdown's findOne: an error
// after the first solution is never met). The first member without one
// fails the expression and no later body runs. The vars it binds stay
// inside. The compiler has hoisted a domain that is a ref or a call into a
// var bound before, so an undefined domain never reaches here; were one to,
// the generator `domain[k] = v` would have no solution and every holds, as
// in topdown.

// errEveryFound stops a body at its first solution. Each every catches the
// one its own body's continuation returns: a nested every's continuation
// is its own, and comprehensions, not and functions run their bodies with
// theirs.
var errEveryFound = errors.New("every: found one")

// errEveryFailed stops the domain's iteration at the first member whose
// body has no solution.
var errEveryFailed = errors.New("every: one failed")

func (s *regocScope) every(ev *ast.Every) (regocStep, error) {
	domain, err := s.ground(ev.Domain)
	if err != nil {
		return regocStep{}, fmt.Errorf("every domain: %w", err)
	}
	saved := s.snapshot()
	defer s.restore(saved)
	keySlot, err := s.everyVar(ev.Key)
	if err != nil {
		return regocStep{}, err
	}
	valSlot, err := s.everyVar(ev.Value)
	if err != nil {
		return regocStep{}, err
	}
	body, err := s.body(ev.Body)
	if err != nil {
		return regocStep{}, err
	}
	walk := &regocRef{head: domain, steps: []regocKey{{bind: keySlot, iterate: true}}}
	return regocStep{test: func(env *regocEnv) (bool, error) {
		d, err := domain(env)
		if err != nil || d == nil {
			return err == nil, err
		}
		switch d.Value.(type) {
		case *ast.Array, ast.Object, ast.Set:
		default:
			return false, nil
		}
		v := visit{do: visitEvery, slot: valSlot, c: cont{b: body}}
		err = walk.walk(env, d, 0, v)
		switch err {
		case nil:
			return true, nil
		case errEveryFailed:
			return false, nil
		}
		return false, err
	}}, nil
}

func everyFound() error { return errEveryFound }

// everyMember looks for a solution of every's body for the member bound:
// nil when there is one, errEveryFailed when there is none.
func everyMember(env *regocEnv, body *regocBody) error {
	switch err := body.run(env, 0, everyFound); err {
	case errEveryFound:
		return nil
	case nil:
		return errEveryFailed
	default:
		return err
	}
}

// everyVar gives every's key or value var a slot of its own, bound inside
// the body. The compiler has renamed both to fresh vars.
func (s *regocScope) everyVar(t *ast.Term) (int, error) {
	v, ok := t.Value.(ast.Var)
	if !ok || s.isBound(v) || isInput(v) {
		return 0, fmt.Errorf("every binds %v", t)
	}
	i := s.slot(v)
	s.bound[i] = true
	return i, nil
}
