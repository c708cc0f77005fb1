//go:build !exhaustive

package sweep

const full = false
