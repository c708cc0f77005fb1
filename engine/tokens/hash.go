package tokens

import (
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
)

// The rank table and the piece counts are indexed by a hash of the bytes
// looked up: the whole piece, then the pairs of parts its merge joins. These
// are a few bytes each, and maphash's call through the runtime cost more
// than the rest of the lookup, so bytes up to 16 long are hashed here as the
// runtime's own fallback (wyhash, when the processor has no AES
// instructions) hashes them: the first and last words of the bytes, each
// mixed with a key by a 128-bit multiply. The keys are random per run, as
// maphash's seed is, so no text can be made to collide on purpose; longer
// bytes go to maphash.
type hasher struct {
	k0, k1 uint64
	seed   maphash.Seed
}

func newHasher() hasher {
	return hasher{k0: rand.Uint64() | 1, k1: rand.Uint64() | 1, seed: maphash.MakeSeed()}
}

// wyhash's constant for the length.
const hashLen = 0xe7037ed1a0b428db

func (k hasher) hash(s string) uint64 {
	n := len(s)
	var a, b uint64
	switch {
	case n > 16:
		return maphash.String(k.seed, s)
	case n >= 8:
		a, b = le64(s), le64(s[n-8:])
	case n >= 4:
		a, b = le32(s), le32(s[n-4:])
	case n > 0:
		a = uint64(s[0])<<16 | uint64(s[n>>1])<<8 | uint64(s[n-1])
	}
	return mix(hashLen^uint64(n), mix(a^k.k0, b^k.k1))
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// le64 and le32 read the first bytes of s, little-endian: the compiler
// makes each one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint64 {
	_ = s[3]
	return uint64(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}
