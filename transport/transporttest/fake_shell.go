package transporttest

import (
	"context"
	"os"
	"path/filepath"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// Shell is the fake hosts' default Handler: it runs the script with
// /bin/sh on this machine, as the user running the tests, with Root as
// working directory and HOME and Root/tmp as TMPDIR, then Syncs, so that
// files Put under Root are what the script sees and what the script
// leaves under Root is what Get returns. Become is recorded but not
// applied: the script runs as the same user. Scripts reach real paths
// elsewhere; keep what a test touches under Root.
func Shell(ctx context.Context, h *Host, cmd transport.Cmd) (transport.Result, error) {
	cmd.Become = nil
	p := local.Process{Name: h.name, Argv: []string{"/bin/sh", "-c"}, Dir: h.root,
		Env: append(os.Environ(), "HOME="+h.root, "TMPDIR="+filepath.Join(h.root, "tmp"))}
	res, err := p.Run(ctx, cmd, nil)
	h.Sync()
	return res, err
}
