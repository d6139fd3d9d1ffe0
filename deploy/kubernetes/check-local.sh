#!/usr/bin/env bash
# Checks the Kubernetes Indexed Job without a cluster: lays out the image's
# /opt/tabula as the Dockerfile's last stage copies it (its plain COPY
# lines), runs the pod command of arena-job.yaml (command and args read from
# it) once per index 0..N-1 with JOB_COMPLETION_INDEX set, as Kubernetes
# does, all at once (parallelism N), kills one pod's process with SIGKILL
# and runs that index again, as backoffLimitPerIndex would (the new pod goes
# on with the same database), runs merge-job.yaml's command, plays the
# arena in one process, and compares the tables with deploy/compare.sh.
# Then validates the manifests against the Kubernetes schemas if
# `kubernetes-validate` is on PATH (pip install kubernetes-validate).
#
#   deploy/kubernetes/check-local.sh
#
# Environment:
#   TABULA=/path/to/tabula   the binary (the image's is `tabula` on PATH);
#                            default ${CARGO_TARGET_DIR:-~/.cache/tabula-target}/debug/tabula
#   KILL_INDEX=0             the index whose pod is killed (none: KILL_INDEX=)
#   KILL_AFTER=0.5           seconds before the kill
#   KEEP=1                   keep the directory to look at
set -euo pipefail

t_start=$EPOCHREALTIME
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deploy=$(dirname "$here")
repo=$(dirname "$deploy")
tabula=${TABULA:-${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}/debug/tabula}
tabula=$(realpath "$tabula")
[[ -x $tabula ]] || { echo "$tabula is not an executable: build it or set TABULA" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
kill_index=${KILL_INDEX-0}
kill_after=${KILL_AFTER:-0.5}

# The values a manifest's `key: [..]` or `key: value` line holds, one a line.
manifest() {
  local file=$1 key=$2 line
  line=$(grep -m1 -E "^ *$key: " "$file") || { echo "no $key: in $file" >&2; exit 1; }
  line=${line#*"$key: "}
  line=${line%%#*}
  tr -d '[]"' <<<"$line" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$'
}
mapfile -t command < <(manifest "$here/arena-job.yaml" command)
mapfile -t args < <(manifest "$here/arena-job.yaml" args)
completions=$(manifest "$here/arena-job.yaml" completions)
mapfile -t merge_command < <(manifest "$here/merge-job.yaml" command)
mapfile -t merge_args < <(manifest "$here/merge-job.yaml" args)
arena=${args[0]}
results=${args[1]}
n=${args[2]}
[[ $n == "$completions" ]] || { echo "arena-job.yaml: completions $completions but N $n in args" >&2; exit 1; }
[[ ${merge_args[*]} == "$arena $results" ]] ||
  { echo "merge-job.yaml's args (${merge_args[*]}) are not arena-job.yaml's ($arena $results)" >&2; exit 1; }
echo "pod command: ${command[*]} ${args[*]}   (JOB_COMPLETION_INDEX 0..$((n - 1)))"
echo "merge command: ${merge_command[*]} ${merge_args[*]}"

work=$(mktemp -d /tmp/tabula-k8s.XXXXXX)
running=() # pids of the pods' processes still running
cleanup() {
  local status=$?
  set +e
  [[ ${#running[@]} -gt 0 ]] && kill "${running[@]}" 2>/dev/null && wait
  if [[ ${KEEP:-} == 1 ]]; then echo "kept $work"; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT

# The image: the runtime stage's COPY lines (after the last FROM, without
# --from) from the repository into /opt/tabula, the binary on PATH as
# `tabula`, and the volume's mount point.
image=$work/opt/tabula
mkdir -p "$image" "$work/bin"
ln -s "$tabula" "$work/bin/tabula"
awk '/^FROM /{ stage = "" } { stage = stage $0 "\n" } END { printf "%s", stage }' "$here/Dockerfile" |
  grep -E '^COPY ' | grep -v -- '--from' | while read -r _ line; do
  read -r -a paths <<<"$line"
  dest=${paths[-1]}
  unset 'paths[-1]'
  [[ $dest == */ ]] && mkdir -p "$image/$dest"
  for p in "${paths[@]}"; do cp -a "$repo/$p" "$image/$dest"; done
done
volume=$work/volume # stands for the PVC, mounted at /results
results_dir=$volume${results#/results}
[[ $results == /results/* ]] || { echo "the results directory $results is not on the volume /results" >&2; exit 1; }
# A pod: the image's working directory and PATH, no TABULA, the volume.
pod=(env -C "$image" "PATH=$work/bin:$PATH" TABULA=)
# The manifests name /results; here the volume is a directory.
local_args=("$arena" "$results_dir" "$n")
local_merge_args=("$arena" "$results_dir")

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
t0=$EPOCHREALTIME
declare -A pid_of
for ((k = 0; k < n; k++)); do
  "${pod[@]}" JOB_COMPLETION_INDEX="$k" "${command[@]}" "${local_args[@]}" >"$work/pod-$k.log" 2>&1 &
  pid_of[$k]=$!
  running+=("$!")
done
if [[ -n $kill_index ]]; then
  sleep "$kill_after"
  if kill -9 "${pid_of[$kill_index]}" 2>/dev/null; then
    echo "index $kill_index: killed (SIGKILL) after $kill_after s"
  else
    echo "index $kill_index: ended before the kill at $kill_after s"
  fi
fi
failed=0
for ((k = 0; k < n; k++)); do
  status=0
  wait "${pid_of[$k]}" 2>/dev/null || status=$?
  if [[ $k == "$kill_index" && $status -eq 137 ]]; then
    # The Job's replacement pod: same index, same volume.
    status=0
    "${pod[@]}" JOB_COMPLETION_INDEX="$k" "${command[@]}" "${local_args[@]}" >>"$work/pod-$k.log" 2>&1 || status=$?
    echo "index $k: a new pod went on with the same database (exit $status)"
  fi
  if [[ $status -ne 0 ]]; then
    echo "index $k failed (exit $status):" >&2
    tail -n 20 "$work/pod-$k.log" >&2
    failed=1
  fi
done
running=()
[[ $failed -eq 0 ]] || exit 1
pods_time=$(since "$t0")
t1=$EPOCHREALTIME
"${pod[@]}" "${merge_command[@]}" "${local_merge_args[@]}" >"$work/merge.log" 2>&1 ||
  { tail -n 20 "$work/merge.log" >&2; echo "the merge failed" >&2; exit 1; }
merge_time=$(since "$t1")
t2=$EPOCHREALTIME
"${pod[@]}" tabula arena "$arena" --db "$work/one.db" >"$work/one.log" 2>&1
one_time=$(since "$t2")

grep -h ' games played in ' "$work"/pod-*.log | sed 's/^/  /' || true
awk '/^Crosstable/ { exit } { print }' "$work/merge.log"
echo "pods: $n at once ${pods_time} s (with the restart), merge ${merge_time} s; one process ${one_time} s"
(cd "$work" && "$deploy/compare.sh" "volume${results#/results}/all.db" one.db)

if command -v kubernetes-validate >/dev/null; then
  kubernetes-validate --strict --quiet "$here"/*.yaml && echo "manifests: valid against the Kubernetes $(kubernetes-validate --version) schemas (strict)"
else
  echo "manifests: not validated (kubernetes-validate not on PATH)"
fi
echo "whole check: $(since "$t_start") s"
