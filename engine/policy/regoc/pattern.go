package regoc

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Array patterns in unification: `[i, _] = x`, `some [i, _] in xs`.

// isPattern reports whether t is an array with an unbound var in it
// (`[i, _] = x`, `some [i, _] in xs`).
func (s *regocScope) isPattern(t *ast.Term) bool {
	if _, ok := t.Value.(*ast.Array); !ok {
		return false
	}
	unbound := false
	ast.WalkVars(t, func(v ast.Var) bool {
		unbound = unbound || !s.isBound(v) && !isInput(v)
		return unbound
	})
	return unbound
}

// destructure compiles pattern = t: t's values (evaluated first) are
// matched against the array pattern, element by element, binding its
// unbound vars and comparing the rest, as topdown unifies two arrays.
func (s *regocScope) destructure(pattern, t *ast.Term) (regocStep, error) {
	vs := t.Vars()
	for v := range pattern.Vars() {
		if vs.Contains(v) && !s.isBound(v) {
			return regocStep{}, fmt.Errorf("var %v on both sides", v)
		}
	}
	g, err := s.gen(t)
	if err != nil {
		return regocStep{}, err
	}
	m, err := s.matcher(pattern)
	if err != nil {
		return regocStep{}, err
	}
	return matchStep(g, m), nil
}

// matcher compiles a pattern term: an unbound var binds, an array matches
// element-wise, anything else must be bound and is compared.
func (s *regocScope) matcher(p *ast.Term) (regocMatch, error) {
	switch v := p.Value.(type) {
	case ast.Var:
		if !s.isBound(v) && !isInput(v) {
			i := s.slot(v)
			s.bound[i] = true
			return bindMatch(i), nil
		}
	case *ast.Array:
		if s.isPattern(p) {
			elems := make([]regocMatch, v.Len())
			for i := range v.Len() {
				m, err := s.matcher(v.Elem(i))
				if err != nil {
					return nil, err
				}
				elems[i] = m
			}
			return arrayMatch(elems), nil
		}
	}
	g, err := s.ground(p)
	if err != nil {
		return nil, err
	}
	return equalMatch(g), nil
}

// regocMatch matches a value against a pattern, binding its vars.
type regocMatch func(env *regocEnv, t *ast.Term) (bool, error)

func bindMatch(slot int) regocMatch {
	return func(env *regocEnv, t *ast.Term) (bool, error) {
		env.slots[slot] = t
		return true, nil
	}
}

func equalMatch(g regocVal) regocMatch {
	return func(env *regocEnv, t *ast.Term) (bool, error) {
		want, err := g(env)
		return want != nil && equal(t, want), err
	}
}

func arrayMatch(elems []regocMatch) regocMatch {
	return func(env *regocEnv, t *ast.Term) (bool, error) {
		a, ok := t.Value.(*ast.Array)
		if !ok || a.Len() != len(elems) {
			return false, nil
		}
		for i, m := range elems {
			if ok, err := m(env, a.Elem(i)); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
}

func matchStep(g regocTerm, m regocMatch) regocStep {
	if g.val != nil {
		return regocStep{test: func(env *regocEnv) (bool, error) {
			t, err := g.val(env)
			if err != nil || t == nil {
				return false, err
			}
			return m(env, t)
		}}
	}
	ref := g.iter
	return regocStep{iter: func(env *regocEnv, c cont) error {
		v := visit{do: visitMatch, m: m, c: c}
		return ref.iter(env, v)
	}}
}
