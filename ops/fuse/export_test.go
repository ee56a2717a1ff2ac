package fuse

// SetTestHookBackward makes f see every backward call of a chain call, with
// the outputs that received gradients, until the returned function is
// called.
func SetTestHookBackward(f func(c *Chain, with []int)) (restore func()) {
	testHookBackward = f
	return func() { testHookBackward = nil }
}
