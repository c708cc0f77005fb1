package policy

import (
	"context"
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// regocEnv is the state of one evaluation of compiled rules: the input,
// the rule's var slots and what a built-in call is given.
type regocEnv struct {
	input  *ast.Term
	slots  []*ast.Term
	cancel topdown.Cancel
	bctx   topdown.BuiltinContext
	steps  int
}

// regocCancelled is the error topdown gives when its Cancel fires.
var regocCancelled = &topdown.Error{Code: topdown.CancelErr, Message: "caller cancelled query execution"}

// tick checks for cancellation (the per-document time limit, the memory
// watchdog) every few iterations, as topdown does at every step.
func (env *regocEnv) tick() error {
	env.steps++
	if env.steps&63 == 0 && env.cancel != nil && env.cancel.Cancelled() {
		return regocCancelled
	}
	return nil
}

type (
	// regocGen yields the values of a term; none when it is undefined.
	regocGen func(env *regocEnv, k func(*ast.Term) error) error
	// regocExpr calls k once per way the expression holds.
	regocExpr func(env *regocEnv, k func() error) error
	// regocBody is a chain of expressions.
	regocBody func(env *regocEnv, k func() error) error
)

// regocStop ends a search early (not, a truthy test) without being an error.
var regocStop = errors.New("stop")

func chainBody(exprs []regocExpr) regocBody {
	if len(exprs) == 0 {
		return func(env *regocEnv, k func() error) error { return k() }
	}
	first, rest := exprs[0], chainBody(exprs[1:])
	if len(exprs) == 1 {
		return regocBody(first)
	}
	return func(env *regocEnv, k func() error) error {
		return first(env, func() error { return rest(env, k) })
	}
}

func notExpr(x regocExpr) regocExpr {
	return func(env *regocEnv, k func() error) error {
		err := x(env, func() error { return regocStop })
		switch err {
		case regocStop:
			return nil
		case nil:
			return k()
		}
		return err
	}
}

func truthyExpr(g regocGen) regocExpr {
	return func(env *regocEnv, k func() error) error {
		return g(env, func(t *ast.Term) error {
			if b, ok := t.Value.(ast.Boolean); ok && !bool(b) {
				return nil
			}
			return k()
		})
	}
}

func bindExpr(slot int, g regocGen) regocExpr {
	return func(env *regocEnv, k func() error) error {
		return g(env, func(t *ast.Term) error {
			env.slots[slot] = t
			err := k()
			env.slots[slot] = nil
			return err
		})
	}
}

func equalExpr(a, b regocGen) regocExpr {
	return func(env *regocEnv, k func() error) error {
		return a(env, func(x *ast.Term) error {
			return b(env, func(y *ast.Term) error {
				if x.Equal(y) {
					return k()
				}
				return nil
			})
		})
	}
}

func constGen(t *ast.Term) regocGen {
	return func(_ *regocEnv, k func(*ast.Term) error) error { return k(t) }
}

func inputGen(env *regocEnv, k func(*ast.Term) error) error {
	if env.input == nil {
		return nil
	}
	return k(env.input)
}

func varGen(slot int) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error { return k(env.slots[slot]) }
}

// grounds calls k with the value of every generator, in order; a ground
// generator yields one value or none.
func evalGrounds(env *regocEnv, gs []regocGen, out []*ast.Term, k func() error) error {
	if len(gs) == 0 {
		return k()
	}
	return gs[0](env, func(t *ast.Term) error {
		out[0] = t
		return evalGrounds(env, gs[1:], out[1:], k)
	})
}

func arrayGen(elems []regocGen) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		out := make([]*ast.Term, len(elems))
		return evalGrounds(env, elems, out, func() error { return k(ast.ArrayTerm(out...)) })
	}
}

func setGen(elems []regocGen) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		out := make([]*ast.Term, len(elems))
		return evalGrounds(env, elems, out, func() error { return k(ast.SetTerm(out...)) })
	}
}

func objectGen(keys, vals []regocGen) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		ks := make([]*ast.Term, len(keys))
		vs := make([]*ast.Term, len(vals))
		return evalGrounds(env, keys, ks, func() error {
			return evalGrounds(env, vals, vs, func() error {
				o := ast.NewObject()
				for i := range ks {
					o.Insert(ks[i], vs[i])
				}
				return k(ast.NewTerm(o))
			})
		})
	}
}

func setCompGen(head regocGen, body regocBody) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		s := ast.NewSet()
		err := body(env, func() error {
			return head(env, func(t *ast.Term) error { s.Add(t); return nil })
		})
		if err != nil {
			return err
		}
		return k(ast.NewTerm(s))
	}
}

func arrayCompGen(head regocGen, body regocBody) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		var out []*ast.Term
		err := body(env, func() error {
			return head(env, func(t *ast.Term) error { out = append(out, t); return nil })
		})
		if err != nil {
			return err
		}
		return k(ast.ArrayTerm(out...))
	}
}

func objectCompGen(key, val regocGen, body regocBody, loc *ast.Location) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		o := ast.NewObject()
		err := body(env, func() error {
			return key(env, func(kt *ast.Term) error {
				return val(env, func(vt *ast.Term) error {
					if prev := o.Get(kt); prev != nil && !prev.Equal(vt) {
						return &topdown.Error{Code: topdown.ConflictErr, Location: loc, Message: "object keys must be unique"}
					}
					o.Insert(kt, vt)
					return nil
				})
			})
		})
		if err != nil {
			return err
		}
		return k(ast.NewTerm(o))
	}
}

// regocStep is one key of a ref: looked up, or iterated binding a slot.
type regocStep struct {
	key     regocGen
	iterate bool
	bind    int
}

func refGen(head regocGen, steps []regocStep) regocGen {
	return func(env *regocEnv, k func(*ast.Term) error) error {
		return head(env, func(t *ast.Term) error { return walkRef(env, t, steps, k) })
	}
}

func walkRef(env *regocEnv, t *ast.Term, steps []regocStep, k func(*ast.Term) error) error {
	if len(steps) == 0 {
		return k(t)
	}
	st := steps[0]
	if !st.iterate {
		return st.key(env, func(key *ast.Term) error {
			if next := regocGet(t, key); next != nil {
				return walkRef(env, next, steps[1:], k)
			}
			return nil
		})
	}
	next := func(key, val *ast.Term) error {
		if err := env.tick(); err != nil {
			return err
		}
		env.slots[st.bind] = key
		err := walkRef(env, val, steps[1:], k)
		env.slots[st.bind] = nil
		return err
	}
	switch v := t.Value.(type) {
	case *ast.Array:
		for i := range v.Len() {
			if err := next(ast.InternedTerm(i), v.Elem(i)); err != nil {
				return err
			}
		}
	case ast.Object:
		return v.Iter(next)
	case ast.Set:
		return v.Iter(func(e *ast.Term) error { return next(e, e) })
	}
	return nil
}

// regocGet looks a key up as topdown does: an object's member, an array's
// element, a set's element.
func regocGet(t, key *ast.Term) *ast.Term {
	switch v := t.Value.(type) {
	case ast.Object:
		return v.Get(key)
	case *ast.Array:
		return v.Get(key)
	case ast.Set:
		if v.Contains(key) {
			return key
		}
	}
	return nil
}

// regocCall is a built-in call: OPA's own implementation, given what
// topdown gives it.
type regocCall struct {
	f    topdown.BuiltinFunc
	args []regocGen
	ops  []*ast.Term // the output operand, when captured, in the last place
	loc  *ast.Location
}

// regocCont wraps an error of the continuation, so it is told from the
// built-in's own error (which makes the expression undefined).
type regocCont struct{ err error }

func (c regocCont) Error() string { return c.err.Error() }

// run calls the built-in with its operands and out for each output.
func (c *regocCall) run(env *regocEnv, out func(*ast.Term) error) error {
	ops := make([]*ast.Term, len(c.ops))
	copy(ops, c.ops)
	return evalGrounds(env, c.args, ops, func() error {
		bctx := env.bctx
		bctx.Location = c.loc
		err := c.f(bctx, ops, func(t *ast.Term) error {
			if err := out(t); err != nil {
				return regocCont{err}
			}
			return nil
		})
		if err == nil {
			return nil
		}
		var cont regocCont
		if errors.As(err, &cont) {
			return cont.err
		}
		var halt topdown.Halt
		if errors.As(err, &halt) {
			return halt.Err
		}
		return nil // a built-in error: the expression is undefined
	})
}

func (c *regocCall) truthy() regocExpr {
	return func(env *regocEnv, k func() error) error {
		return c.run(env, func(t *ast.Term) error {
			if b, ok := t.Value.(ast.Boolean); ok && !bool(b) {
				return nil
			}
			return k()
		})
	}
}

func (c *regocCall) bind(slot int) regocExpr {
	return func(env *regocEnv, k func() error) error {
		return c.run(env, func(t *ast.Term) error {
			env.slots[slot] = t
			err := k()
			env.slots[slot] = nil
			return err
		})
	}
}

func (c *regocCall) compare(g regocGen) regocExpr {
	return func(env *regocEnv, k func() error) error {
		return c.run(env, func(t *ast.Term) error {
			return g(env, func(want *ast.Term) error {
				if t.Equal(want) {
					return k()
				}
				return nil
			})
		})
	}
}

// regocEval evaluates the compiled packages over one input: per pack and
// set, the set of values the rules produced.
func regocEval(ctx context.Context, pkgs []*regocPackage, input ast.Value, cancel topdown.Cancel, caps *ast.Capabilities, out map[regocKey]ast.Set) error {
	env := &regocEnv{input: ast.NewTerm(input), cancel: cancel}
	env.bctx = topdown.BuiltinContext{Context: ctx, Metrics: noMetrics, Cancel: cancel, Cache: builtins.Cache{}, Capabilities: caps}
	for _, p := range pkgs {
		for _, set := range recordSets {
			rules := p.sets[set]
			if len(rules) == 0 {
				continue
			}
			key := regocKey{p.pack, set}
			s := out[key]
			for _, r := range rules {
				if cap(env.slots) < r.slots {
					env.slots = make([]*ast.Term, r.slots)
				}
				env.slots = env.slots[:r.slots]
				err := r.body(env, func() error {
					return r.key(env, func(t *ast.Term) error {
						if s == nil {
							s = ast.NewSet()
						}
						s.Add(t)
						return nil
					})
				})
				if err != nil {
					return err
				}
			}
			if s != nil {
				out[key] = s
			}
		}
	}
	if cancel != nil && cancel.Cancelled() {
		return regocCancelled
	}
	return nil
}

// regocKey names one finding set of one pack.
type regocKey struct{ pack, set string }
