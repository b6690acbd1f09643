package files

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
)

// treeFile is a controller file a tree copy puts at rel (under the copy's
// root on the host).
type treeFile struct{ rel, local, sum string }

// treeLink is a symlink a tree copy makes at rel, pointing at target (the
// controller link's own text).
type treeLink struct{ rel, target string }

// copyWalk is what a tree copy makes on the host.
type copyWalk struct {
	dirs  []string
	files []treeFile
	links []treeLink
	// sandbox is asked before each directory is listed, and lists it.
	sandbox *sandbox.Policy
}

// walkCopyTree lists the controller directory top as Ansible's copy does
// for a recursive copy. A symlink is copied as a symlink with the same
// text unless local_follow is set; followed, a link to a file copies the
// file it points at, and a link to a directory copies that directory's
// contents, except a link back to a directory the walk is inside (a
// cycle), which stays a symlink. A link to nothing is always a symlink.
// The sandbox is asked before each directory is listed, and lists it.
func walkCopyTree(top string, follow bool, sandbox *sandbox.Policy) (copyWalk, error) {
	w := copyWalk{sandbox: sandbox}
	fi, err := os.Stat(top)
	if err != nil {
		return w, err
	}
	err = w.walk(top, "", []os.FileInfo{fi}, follow)
	return w, err
}

func (w *copyWalk) walk(dir, rel string, parents []os.FileInfo, follow bool) error {
	ents, err := w.sandbox.ReadDir(dir)
	if err != nil {
		return err
	}
	// As os.walk: a level's files, then its directories, then what the
	// real subdirectories hold.
	var sub []int
	for pass := 0; pass < 2; pass++ {
		for i, e := range ents {
			p := filepath.Join(dir, e.Name())
			st, serr := os.Stat(p) // follows a link; fails for a link to nothing
			if isDir := serr == nil && st.IsDir(); isDir != (pass == 1) {
				continue
			}
			if e.Type()&os.ModeSymlink == 0 && e.IsDir() {
				w.dirs = append(w.dirs, path.Join(rel, e.Name()))
				sub = append(sub, i)
				continue
			}
			if err := w.entry(p, path.Join(rel, e.Name()), e, st, serr, parents, follow); err != nil {
				return err
			}
		}
	}
	for _, i := range sub {
		p := filepath.Join(dir, ents[i].Name())
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if err := w.walk(p, path.Join(rel, ents[i].Name()), append(parents[:len(parents):len(parents)], st), follow); err != nil {
			return err
		}
	}
	return nil
}

// entry adds a file or a symlink met by walk.
func (w *copyWalk) entry(p, r string, e os.DirEntry, st os.FileInfo, serr error, parents []os.FileInfo, follow bool) error {
	if e.Type()&os.ModeSymlink == 0 {
		w.files = append(w.files, treeFile{rel: r, local: p})
		return nil
	}
	target, err := os.Readlink(p)
	if err != nil {
		return err
	}
	switch {
	case !follow || serr != nil:
		w.links = append(w.links, treeLink{r, target})
	case !st.IsDir():
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !st.Mode().IsRegular() {
			w.links = append(w.links, treeLink{r, target})
		} else {
			w.files = append(w.files, treeFile{rel: r, local: real})
		}
	case inParents(st, parents):
		w.links = append(w.links, treeLink{r, target})
	default:
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return err
		}
		w.dirs = append(w.dirs, r)
		return w.walk(real, r, append(parents[:len(parents):len(parents)], st), follow)
	}
	return nil
}

func inParents(st os.FileInfo, parents []os.FileInfo) bool {
	for _, p := range parents {
		if os.SameFile(st, p) {
			return true
		}
	}
	return false
}

// decryptFile reads a vault-encrypted controller file (through the
// sandbox, bounded as vault.ReadFile bounds it) and decrypts it with the
// run's vault secrets.
func decryptFile(env *tasks.Env, local string) ([]byte, error) {
	data, err := env.Sandbox.ReadVaultFile(local)
	if err != nil {
		return nil, err
	}
	plain, err := env.Decrypt(data)
	if err != nil {
		return nil, fmt.Errorf("%v on %s", err, local)
	}
	return plain, nil
}

// vaultRefusal is the failure of copying a vault-encrypted controller
// file with decrypt on: tender holds no vault secret, so, as Ansible does
// without a password, it refuses ("" when the file is not encrypted).
// The file is opened through the sandbox.
func vaultRefusal(env *tasks.Env, local string) string {
	f, err := env.Sandbox.Open(local)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, len("$ANSIBLE_VAULT;"))
	if n, _ := f.Read(head); n == len(head) && string(head) == "$ANSIBLE_VAULT;" {
		return "A vault password or secret must be specified to decrypt " + local
	}
	return ""
}
