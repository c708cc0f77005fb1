package astjson

import "github.com/chatlint/chatlint/engine/internal/jsonlex"

// skip reads the value at Data[i], after any white space, without building
// it, and returns the index just past it (-1 after the lexer recorded an
// error). It drives the lexer exactly as value does, so a value left out by
// a projection is validated as a built one is: the same errors at the same
// offsets, the same depth limit, the same numbers refused.
func (d *decoder) skip(i int) int {
	k, i := d.Peek(i)
	switch k {
	case jsonlex.String:
		return d.SkipString(i)
	case jsonlex.Object:
		return d.skipObject(i)
	case jsonlex.Array:
		return d.skipArray(i)
	case jsonlex.Number:
		j, form := d.Number(i)
		if j >= 0 {
			d.inRange(i, j, form)
		}
		return j
	case jsonlex.True:
		return d.Literal(i, "true")
	case jsonlex.False:
		return d.Literal(i, "false")
	case jsonlex.Null:
		return d.Literal(i, "null")
	}
	return -1
}

func (d *decoder) skipObject(i int) int {
	if !d.Enter(i) {
		return -1
	}
	_, j, more := d.Member(i+1, true)
	for more {
		end := d.skip(j)
		if end < 0 {
			return end
		}
		if _, j, more = d.Member(end, false); j < 0 {
			return j
		}
	}
	return j
}

func (d *decoder) skipArray(i int) int {
	if !d.Enter(i) {
		return -1
	}
	j, more := d.FirstElement(i + 1)
	for more {
		end := d.skip(j)
		if end < 0 {
			return end
		}
		if j, more = d.Element(end); j < 0 {
			return j
		}
	}
	return j
}
