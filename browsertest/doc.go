// Package browsertest drives the whole Tengen server with Debian's chromium
// through chromedp: two people in two browser contexts sign up, challenge,
// play, count and download the record, as issue 4 asks. The package has
// only tests; they skip when chromium is missing unless the environment
// variable TENGEN_REQUIRE_CHROMIUM is set, as in .ci/run.
package browsertest
