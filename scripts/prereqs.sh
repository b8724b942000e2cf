#!/usr/bin/env bash
# Installs what I-RMI needs beyond the JDK and Maven, from Debian's packages:
#   httperf (DayTrader load), omniORB + omniidl + g++ (the independent interop peer and load client),
#   omniNames (a standard CORBA Naming Service for rerouting tests), promtool (the alert rules' check),
#   chromium + chromium-driver (the dashboard's browser test; optional: where they cannot be
#   installed, that one test is skipped with a message saying so, and everything else runs).
# When it cannot install the rest (not root, no apt-get), it stops and prints the exact command to run.
set -euo pipefail
browser=()
command -v chromium     >/dev/null 2>&1 || browser+=(chromium)
command -v chromedriver >/dev/null 2>&1 || browser+=(chromium-driver)
if [ ${#browser[@]} -gt 0 ]; then
  echo "irmi: installing ${browser[*]} for the dashboard's browser test" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "${browser[@]}" >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${browser[@]}" >/dev/null 2>&1; } \
      || echo "irmi: could not install ${browser[*]}; DashboardBrowserTest will be skipped." \
              "Run: sudo apt-get update && sudo apt-get install -y ${browser[*]}" >&2
  else
    echo "irmi: ${browser[*]} missing; DashboardBrowserTest will be skipped." \
         "Run: sudo apt-get install -y ${browser[*]}" >&2
  fi
fi
need=()
command -v httperf   >/dev/null 2>&1 || need+=(httperf)
command -v omniidl   >/dev/null 2>&1 || need+=(omniidl)
[ -e /usr/include/omniORB4/CORBA.h ] || need+=(libomniorb4-dev)
[ -e /usr/include/openssl/ssl.h ] || need+=(libssl-dev)   # omniORB's SSL transport (OmniOrbTlsTest)
command -v omniNames >/dev/null 2>&1 || need+=(omniorb-nameserver)
command -v g++       >/dev/null 2>&1 || need+=(g++)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# promtool checks the alert rules (PromtoolRulesTest); Debian ships it in the prometheus package
command -v promtool  >/dev/null 2>&1 || need+=(prometheus)
# the crosstalk experiment's emulated link: ip (network namespace, veth) and tc (HTB, FIFO)
{ command -v ip && command -v tc; } >/dev/null 2>&1 || need+=(iproute2)
[ ${#need[@]} -eq 0 ] && exit 0
echo "irmi: installing missing packages: ${need[*]}" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${need[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${need[@]}" >/dev/null; } \
    || { echo "irmi: could not install ${need[*]}. Run: sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2; exit 1; }
else
  echo "irmi: missing ${need[*]}. Run: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
