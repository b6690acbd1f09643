package config

import (
	"math/big"
	"strings"
	"testing"
)

// An integer past 64 bits (a *big.Int from a YAML variable) converts to a
// float as Python's float() does; an int setting refuses it as out of
// tender's range, as it refuses such text.
func TestBigIntSetting(t *testing.T) {
	huge, _ := new(big.Int).SetString("18446744073709551616", 10)
	if f, err := toFloat(huge); err != nil || f != 18446744073709551616.0 {
		t.Errorf("toFloat = %v, %v", f, err)
	}
	if _, err := toInt(huge); err == nil || !strings.Contains(err.Error(), "18446744073709551616 is out of tender's integer range") {
		t.Errorf("toInt: %v", err)
	}
	vast := new(big.Int).Lsh(huge, 2000)
	if _, err := toFloat(vast); err == nil {
		t.Error("toFloat of 2**2064 did not fail")
	}
}
