package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestPolicyEnv(t *testing.T) {
	t.Setenv("TENDER_POLICY_OK", "fine")
	t.Setenv("TENDER_POLICY_SECRET", "s3cret")
	p := &Policy{Name: "sb.yml", Env: []string{"TENDER_POLICY_OK", "TENDER_POLICY_UNSET"}}
	if err := p.CheckEnv("TENDER_POLICY_OK"); err != nil {
		t.Error(err)
	}
	err := p.CheckEnv("TENDER_POLICY_SECRET")
	var de *DeniedError
	if !errors.As(err, &de) || err.Error() != "the controller sandbox sb.yml does not allow reading the environment variable TENDER_POLICY_SECRET (readable: TENDER_POLICY_OK, TENDER_POLICY_UNSET)" {
		t.Errorf("%v", err)
	}
	for name, want := range map[string]string{"TENDER_POLICY_OK": "fine", "TENDER_POLICY_SECRET": "", "TENDER_POLICY_UNSET": ""} {
		if v, ok := p.LookupEnv(name); v != want || ok != (want != "") {
			t.Errorf("%s: %q %t", name, v, ok)
		}
	}
	if err := (&Policy{}).CheckEnv("HOME"); err == nil || !strings.Contains(err.Error(), "(readable: none)") {
		t.Errorf("zero policy: %v", err)
	}
	var nilPolicy *Policy
	if v, ok := nilPolicy.LookupEnv("TENDER_POLICY_SECRET"); v != "s3cret" || !ok {
		t.Errorf("nil policy: %q %t", v, ok)
	}
	for _, bad := range []string{"", "A=B", "A\x00"} {
		if err := (&Policy{Env: []string{"OK", bad}}).Validate(); err == nil || !strings.Contains(err.Error(), "is not an environment variable's name") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
