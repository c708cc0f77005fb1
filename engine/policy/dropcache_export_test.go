package policy

// SetDropCacheAbove sets the size past which the YAML rules' cache lets go
// of its buffers, and returns the previous one, for the tests of policy_test.
func SetDropCacheAbove(n int) int {
	old := dropCacheAbove
	dropCacheAbove = n
	return old
}
