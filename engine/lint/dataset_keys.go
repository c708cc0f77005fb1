package lint

import (
	"hash/maphash"

	"github.com/open-policy-agent/opa/v1/ast"
)

// keyFold follows a file's dataset keys (document.Adapter.DatasetKey): the
// first line of each value, and the records that repeat one, listed up to
// a bound and counted beyond it.
//
// Values are held as 128-bit hashes rather than strings: 16 bytes a value
// whatever its length, in a map without pointers, which the garbage
// collector does not scan (with strings, scanning a map of millions of ids
// made each collection slower as the file went on). Two different values
// sharing a hash is about one chance in 10^21 for a billion values. At a
// million distinct values the map holds about 40 MB; the listed repeats
// keep their values, but no more of them than the bound.
type keyFold struct {
	first   map[keyHash]int
	seeds   [2]maphash.Seed
	listed  []*ast.Term
	repeats int
}

type keyHash [2]uint64

// add folds one record's key and returns the line that used it first, or 0
// when it is new.
func (k *keyFold) add(f Facts, bound int) int {
	if k.first == nil {
		k.first = map[keyHash]int{}
		k.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	}
	h := keyHash{maphash.String(k.seeds[0], f.Key), maphash.String(k.seeds[1], f.Key)}
	first, ok := k.first[h]
	if !ok {
		k.first[h] = f.Line
		return 0
	}
	k.repeats++
	if len(k.listed) < bound {
		k.listed = append(k.listed, ast.ObjectTerm(
			ast.Item(ast.StringTerm("line"), ast.IntNumberTerm(f.Line)),
			ast.Item(ast.StringTerm("first_line"), ast.IntNumberTerm(first)),
			ast.Item(ast.StringTerm("member"), ast.StringTerm(f.Member)),
			ast.Item(ast.StringTerm("value"), ast.StringTerm(f.Key)),
		))
	}
	return first
}

// Keys returns the distinct dataset keys folded so far, and how many
// records repeated one: all of them, and those the dataset document lists.
func (d *Dataset) Keys() (distinct, repeats, listed int) {
	return len(d.keys.first), d.keys.repeats, len(d.keys.listed)
}
