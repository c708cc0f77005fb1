package main

import (
	"math"
)

func (g *generator) intn(n int) int { return g.r.IntN(n) }

// between returns a uniform int in [lo, hi].
func (g *generator) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

// logUniform returns an int in [lo, hi] whose logarithm is uniform.
func (g *generator) logUniform(lo, hi int) int {
	l, h := math.Log(float64(lo)), math.Log(float64(hi))
	return int(math.Exp(l + g.r.Float64()*(h-l)))
}

func pick[T any](g *generator, s []T) T { return s[g.r.IntN(len(s))] }

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// appendAlnum appends n random alphanumeric characters.
func (g *generator) appendAlnum(b []byte, n int) []byte {
	for n > 0 {
		x := g.r.Uint64()
		for k := 0; k < 10 && n > 0; k++ {
			b = append(b, alnum[x%62])
			x /= 62
			n--
		}
	}
	return b
}

func (g *generator) appendDigits(b []byte, n int) []byte {
	for range n {
		b = append(b, byte('0'+g.r.IntN(10)))
	}
	return b
}
