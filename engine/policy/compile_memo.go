package policy

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math"
	"os"
	"reflect"
	"sync"

	"github.com/chatlint/chatlint/engine/policy/regoc"
)

// A process may compile the same packs more than once: Beam starts one
// evaluator host per DoFn instance on a worker, a test binary runs the CLI
// hundreds of times, and compiling is most of a run's start-up. The
// compiled parts depend on nothing but the packs' content, and Compile only
// reads them (it copies the Rego program before giving it its rule table),
// so they are kept by content and handed out again. The table keeps the
// last few pack sets: a long-lived process that compiles ever new packs
// holds no more than that.
const memoSize = 8

var memo struct {
	sync.Mutex
	keys  []packKey
	parts map[packKey]*compiledParts
}

// memoCompileParts is compileParts, reused for packs compiled before. A
// cancelled compile is not kept. Parts made lazy and handed out again to an
// eager Compile are compiled then (compiledParts.program).
func memoCompileParts(ctx context.Context, packs []*Pack, lazy bool) *compiledParts {
	key, ok := packsKey(packs)
	if !ok {
		return compileParts(ctx, packs, lazy)
	}
	memo.Lock()
	c := memo.parts[key]
	memo.Unlock()
	if c != nil {
		return c
	}
	c = compileParts(ctx, packs, lazy)
	if ctx.Err() != nil {
		return c
	}
	memo.Lock()
	defer memo.Unlock()
	if memo.parts == nil {
		memo.parts = map[packKey]*compiledParts{}
	}
	if _, dup := memo.parts[key]; !dup {
		if len(memo.keys) == memoSize {
			delete(memo.parts, memo.keys[0])
			memo.keys = memo.keys[1:]
		}
		memo.keys = append(memo.keys, key)
		memo.parts[key] = c
	}
	return c
}

// packKey is a digest of a pack set: two 64-bit hashes of the same bytes
// under two seeds of this process, so that two different sets share a key
// with a chance of 2^-128, and no one outside the process can make them.
type packKey [2]uint64

// packKeySeeds are the process's seeds of packKey.
var packKeySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// packsKey digests everything of the packs that compiling reads, and the
// one setting of the environment it reads (regoc.EnvVar: whether Rego is
// compiled to closures). It hashes every field of the packs, found by
// reflection so that a field added to Pack is in the key at once, without
// encoding them first: the digest of the built-in packs was a twentieth of
// a one-record check as SHA-256 over their JSON. ok is false for a pack
// holding a kind of value it cannot digest (a map: no order).
func packsKey(packs []*Pack) (packKey, bool) {
	var hs [2]maphash.Hash
	for i := range hs {
		hs[i].SetSeed(packKeySeeds[i])
	}
	w := keyWriter{hs: &hs}
	w.string(os.Getenv(regoc.EnvVar))
	w.int(uint64(len(packs)))
	for _, p := range packs {
		if !w.value(reflect.ValueOf(p)) {
			return packKey{}, false
		}
	}
	return packKey{hs[0].Sum64(), hs[1].Sum64()}, true
}

// keyWriter writes values into both hashes, each length first so that
// ("ab", "c") and ("a", "bc") differ.
type keyWriter struct{ hs *[2]maphash.Hash }

func (w keyWriter) int(n uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	w.hs[0].Write(b[:])
	w.hs[1].Write(b[:])
}

func (w keyWriter) string(s string) {
	w.int(uint64(len(s)))
	w.hs[0].WriteString(s)
	w.hs[1].WriteString(s)
}

func (w keyWriter) bytes(b []byte) {
	w.int(uint64(len(b)))
	w.hs[0].Write(b)
	w.hs[1].Write(b)
}

func (w keyWriter) value(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			w.int(0)
			return true
		}
		w.int(1)
		return w.value(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if !w.value(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			w.bytes(v.Bytes())
			return true
		}
		w.int(uint64(v.Len()))
		for i := range v.Len() {
			if !w.value(v.Index(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		w.string(v.String())
		return true
	case reflect.Bool:
		if v.Bool() {
			w.int(1)
		} else {
			w.int(0)
		}
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.int(uint64(v.Int()))
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.int(v.Uint())
		return true
	case reflect.Float32, reflect.Float64:
		w.int(math.Float64bits(v.Float()))
		return true
	}
	return false
}
