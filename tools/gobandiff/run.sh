#!/usr/bin/env bash
# run.sh OLD NEW [-games N]: plays random games (5×5 to 19×19, with undos) on the goban
# board of commit OLD and of commit NEW side by side and reports
# every difference in legality, captures, hash, eyes, ataris, liberties, chain
# sizes and rings, area score, unconditionally alive stones and statuses.
# A nested module, so that `go test ./...` of the main module skips it.
set -euo pipefail
old=${1:?usage: run.sh OLD NEW [-games N]}; new=${2:?usage: run.sh OLD NEW [-games N]}
dir=$(cd "$(dirname "$0")" && pwd); top=$(git -C "$dir" rev-parse --show-toplevel)
for side in old new; do
  rev=$old; [ "$side" = new ] && rev=$new
  rm -rf "$dir/${side}goban" && mkdir -p "$dir/${side}goban"
  git -C "$top" archive "$rev" goban | tar -x -C "$dir/${side}goban" --strip-components=1
  rm -f "$dir/${side}goban"/*_test.go
  sed -i "s/^package goban$/package ${side}goban/" "$dir/${side}goban"/*.go
done
cd "$dir" && go run . "${@:3}"
