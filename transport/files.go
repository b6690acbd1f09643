package transport

import "os"

// Files vets the controller files a connection would use because of its
// Target, which a playbook's variables fill (the key files, and the key,
// known_hosts and other files CommonArgs and ExtraArgs name), as opposed
// to the Dialer's own settings, which are the operator's. A Dialer that
// uses such files asks CheckRead about each of them (after expanding ~
// and its tokens) before it connects, opens them through Open, and asks
// CheckWrite before writing one (a known_hosts file that accept-new
// records a host in). A refusal fails the connection with the error as
// it is, not as ErrUnreachable: the host is not at fault. Methods must
// be safe for concurrent use.
type Files interface {
	// CheckRead refuses a file that may not be read (or tested for
	// existence).
	CheckRead(path string) error
	// CheckWrite refuses a file that may not be created or written.
	CheckWrite(path string) error
	// Open opens a file CheckRead allows for reading, making sure the
	// file it opens is still one it allows.
	Open(path string) (*os.File, error)
}
