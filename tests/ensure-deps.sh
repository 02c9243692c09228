#!/usr/bin/env bash
# Install what `make test` needs from Debian's packages when it is missing
# (as root, through apt-get); otherwise say exactly what to install.
set -u
need=()
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi binutils-arm-none-eabi)
command -v gzip >/dev/null 2>&1 || need+=(gzip)
command -v awk >/dev/null 2>&1 || need+=(mawk)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v jq >/dev/null 2>&1 || need+=(jq)
# make figures draws with gnuplot; tests/pictures.sh renders a chart in headless Chromium.
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v cppcheck >/dev/null 2>&1 || need+=(cppcheck)
command -v qemu-system-arm >/dev/null 2>&1 || need+=(qemu-system-arm)
# Slurm, for the private single-node cluster of tests/sweep/slurm.sh (slurm_lib.sh). Where policy-rc.d allows it, installing
# starts the system munged (/etc/munge/munge.key, /run/munge); slurmd and slurmctld are not started
# without an /etc/slurm/slurm.conf (their units and init scripts require it). The tests neither use
# nor stop them: their munged has its own socket and key, their daemons their own ports and config.
command -v slurmctld >/dev/null 2>&1 || need+=(slurmctld)
command -v slurmd >/dev/null 2>&1 || need+=(slurmd)
command -v sbatch >/dev/null 2>&1 || need+=(slurm-client)
command -v munged >/dev/null 2>&1 || need+=(munge)
# libFuzzer: clang and its runtime (the generic package names follow Debian's default LLVM).
if ! command -v clang >/dev/null 2>&1; then
	need+=(clang libclang-rt-dev)
elif ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
	clang -x c -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1; then
	need+=(libclang-rt-dev)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "installing: ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null && exit 0
	echo "apt-get could not install: ${need[*]}" >&2
	exit 1
fi
echo "make test needs these Debian packages: ${need[*]}" >&2
echo "install them as root: apt-get install ${need[*]}" >&2
exit 1
