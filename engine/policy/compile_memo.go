package policy

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"os"
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
	keys  [][sha256.Size]byte
	parts map[[sha256.Size]byte]*compiledParts
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
		memo.parts = map[[sha256.Size]byte]*compiledParts{}
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

// packsKey digests everything of the packs that compiling reads, and the
// one setting of the environment it reads (regoc.EnvVar: whether Rego is
// compiled to closures).
func packsKey(packs []*Pack) ([sha256.Size]byte, bool) {
	h := sha256.New()
	h.Write([]byte(os.Getenv(regoc.EnvVar)))
	var n [8]byte
	for _, p := range packs {
		b, err := json.Marshal(p)
		if err != nil {
			return [sha256.Size]byte{}, false
		}
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, true
}
