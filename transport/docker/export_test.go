package docker

// SetContainerForTest points c at another container, as if the one it
// was opened for had been replaced.
func (c *Conn) SetContainerForTest(name string) { c.container = name }
