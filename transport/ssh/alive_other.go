//go:build !unix

package ssh

// processAlive cannot tell here, so it says yes: the upload file is then
// only removed once it is StaleUploadAge old.
func processAlive(int) bool { return true }
