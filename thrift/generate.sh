#!/usr/bin/env bash
# Regenerates the committed Java sources of the project's Thrift IDL files with the Apache Thrift
# compiler, which must be version 0.17.0: the version of libthrift in pom.xml (the generated code calls
# into the runtime library, and the two are released and tested together).
#
#   thrift/generate.sh            writes into the source tree (commit the result)
#   thrift/generate.sh OUT_DIR    writes the same tree under OUT_DIR instead (used by check-generated.sh)
#
# Install the compiler on Debian/Ubuntu: apt-get install thrift-compiler (Debian 12 ships 0.17.0).
set -euo pipefail

EXPECTED_VERSION="0.17.0"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT}"

# IDL file -> Java source root it is generated into (the namespace adds the package folders)
IDLS=(
  "thrift/benchmark.thrift:src/main/java"
  "src/test/thrift/calculator.thrift:src/test/java"
)
# the package folder of each IDL's generated code, replaced as a whole so deleted types disappear
PACKAGES=(
  "src/main/java/benchmark/thrift/gen"
  "src/test/java/protocols/thrift/calculator"
)

if ! command -v thrift >/dev/null 2>&1; then
  echo "thrift/generate.sh: the Apache Thrift compiler 'thrift' is not on the PATH;" \
    "install version $EXPECTED_VERSION (Debian: apt-get install thrift-compiler)" >&2
  exit 2
fi
VERSION="$(thrift --version | awk '{print $3}')"
if [ "$VERSION" != "$EXPECTED_VERSION" ]; then
  echo "thrift/generate.sh: found Thrift compiler $VERSION, expected $EXPECTED_VERSION" \
    "(it must match libthrift in pom.xml)" >&2
  exit 2
fi

for package in "${PACKAGES[@]}"; do
  rm -rf "${OUT:?}/$package"
done
for entry in "${IDLS[@]}"; do
  idl="${entry%%:*}"
  java_root="${entry#*:}"
  mkdir -p "$OUT/$java_root"
  # generated_annotations=suppress: no @Generated(date = ...) that would change at every run
  thrift --gen java:generated_annotations=suppress -out "$OUT/$java_root" "$ROOT/$idl"
done
