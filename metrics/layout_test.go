package metrics_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyMetricsImportsPrometheus keeps the layout: the other packages
// report through hooks, and only package metrics knows Prometheus.
func TestOnlyMetricsImportsPrometheus(t *testing.T) {
	// go test puts its own GOROOT/bin first on the PATH of the tests.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "tengen/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := false
	for line := range strings.Lines(string(out)) {
		pkg, imports, _ := strings.Cut(strings.TrimSpace(line), " ")
		if !strings.Contains(imports, "github.com/prometheus/") {
			continue
		}
		if pkg != "tengen/metrics" {
			t.Errorf("%s imports the Prometheus client; report through a hook that internal/app wires to package metrics", pkg)
		}
		seen = true
	}
	if !seen {
		t.Error("package metrics does not import the Prometheus client: the check proves nothing")
	}
}
