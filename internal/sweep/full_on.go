//go:build exhaustive

package sweep

const full = true
