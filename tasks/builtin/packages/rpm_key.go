package packages

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rpmKeyModule imports a GPG key into the host's rpm database or removes
// it, as ansible-core 2.14's rpm_key: the key is a file on the host, a
// key id already imported, or an http(s) URL. The host's gpg reads the
// key id (and the fingerprint, when one is asked for) and the ids of the
// keys rpm holds; rpm --import and rpm --erase change them. One round
// trip; a URL is fetched first, from the host's network: the connection
// is opened on the host's side of the SSH connection (Conn.Dial), as
// get_url and uri do, so the host needs no curl, and the key reaches the
// script on stdin.
type rpmKeyModule struct{}

var _ tasks.Module = rpmKeyModule{}

var rpmKeyArgs = &tasks.Spec{
	Module: "rpm_key",
	Params: []tasks.Param{
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "key", Required: true},
		{Name: "fingerprint"},
		{Name: "validate_certs", Kind: tasks.Bool, Default: true},
	},
}

// Spec is rpm_key's argument specification.
func (rpmKeyModule) Spec() *tasks.Spec { return rpmKeyArgs }

var (
	rpmKeyID = regexp.MustCompile(`(?i)^(0x)?[0-9a-f]{8}`)
	pgpBlock = regexp.MustCompile(`(?s)^.*?(-----BEGIN PGP PUBLIC KEY BLOCK-----.*?-----END PGP PUBLIC KEY BLOCK-----).*`)
)

// Run imports or removes the key.
//
// A URL other than http or https is refused (Ansible's fetch_url
// reads file:// URLs but then fails for want of a 200 status); proxies
// of the host's environment are not used.
func (rpmKeyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := rpmKeyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	key := a.Str("key")
	kind := "path"
	var stdin io.Reader
	switch {
	case strings.Contains(key, "://"):
		kind = "url"
		body, msg := fetchKey(ctx, env, key, a.Bool("validate_certs"))
		if msg != "" {
			return shared.Fail(msg), nil
		}
		stdin = strings.NewReader(body)
	case rpmKeyID.MatchString(key):
		kind = "keyid"
	}
	fp := strings.ToUpper(strings.ReplaceAll(a.Str("fingerprint"), " ", ""))
	vars := shared.ShAssign([][2]string{{"key", key}, {"kind", kind}, {"state", a.Str("state")},
		{"fingerprint", fp}, {"_t_check", shared.BoolFlag(env.Check)}})
	out, err := shared.Run(ctx, env, vars+rpmKeyScript, stdin)
	if err != nil {
		return tasks.Result{}, err
	}
	v, b := shared.ParseBlobs(out.Stdout)
	if msg, ok := b["fail"]; ok {
		return shared.Fail(msg), nil
	}
	switch v["changed"] {
	case "0", "1":
		return tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}, nil
	}
	return shared.Fail(shared.ScriptError(out)), nil
}

// fetchKey gets the key at rawURL from the host's network and checks it
// holds an armored public key; msg is Ansible's message when it does
// not.
func fetchKey(ctx context.Context, env *tasks.Env, rawURL string, validate bool) (body, msg string) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Sprintf("failed to fetch key at %s , error was: tender fetches keys over http and https only", shared.RedactURL(rawURL))
	}
	client := shared.HostHTTP(env, 10*time.Second, validate, true)
	client.CheckRedirect = shared.SafeRedirects("urllib2")
	req, err := shared.NewRequest(ctx, tasks.Values{"http_agent": "ansible-httpget"}, "GET", rawURL, nil)
	if err != nil {
		return "", fmt.Sprintf("failed to fetch key at %s , error was: %v", shared.RedactURL(rawURL), err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Sprintf("failed to fetch key at %s , error was: %s", shared.RedactURL(rawURL), shared.RequestError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return "", fmt.Sprintf("failed to fetch key at %s , error was: %s", shared.RedactURL(rawURL), shared.HttpErrorMsg(resp))
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return "", fmt.Sprintf("failed to fetch key at %s , error was: %s", shared.RedactURL(rawURL), shared.RequestError(err))
	}
	if !pgpBlock.Match(b) {
		return "", "Not a public key: " + shared.RedactURL(rawURL)
	}
	return string(b), ""
}
