package ssh

import (
	"io"
	"os"
	"sort"
)

// refusedError is a file the Target's Files refused: Connect returns it
// as it is, not as unreachable.
type refusedError struct{ err error }

func (e *refusedError) Error() string { return e.err.Error() }
func (e *refusedError) Unwrap() error { return e.err }

// vet asks each hop's Files whether the files its Target named may be
// read, before anything is dialled.
func vet(hops []*hop) error {
	for _, h := range hops {
		if h.files == nil {
			continue
		}
		names := make([]string, 0, len(h.named))
		for f := range h.named {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			if err := h.files.CheckRead(f); err != nil {
				return &refusedError{err}
			}
		}
	}
	return nil
}

// checkWrite asks h's Files whether the connection may write to file,
// when its Target named it.
func (h *hop) checkWrite(file string) error {
	if h.files == nil || !h.named[file] {
		return nil
	}
	if err := h.files.CheckWrite(file); err != nil {
		return &refusedError{err}
	}
	return nil
}

// readFile reads a controller file h uses: through the Target's Files
// when the Target named it (the file read is the file vetted), else as
// os.ReadFile.
func (h *hop) readFile(file string) ([]byte, error) {
	if h == nil || h.files == nil || !h.named[file] {
		return os.ReadFile(file)
	}
	f, err := h.files.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// vetted reports whether h reads file through its Target's Files.
func (h *hop) vetted(file string) bool {
	return h != nil && h.files != nil && h.named[file]
}
