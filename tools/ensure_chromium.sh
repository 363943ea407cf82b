#!/usr/bin/env bash
# Install Debian's chromium for the docs browser check when it is missing and we can (root + apt).
# When we can't, say so: the browser test then skips with the same reason.
set -u
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then exit 0; fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium (Debian package) for the docs browser check..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null && exit 0
  echo "warning: apt-get could not install chromium; the docs browser check will be skipped" >&2
else
  echo "note: chromium is not installed and this user cannot install it (needs root and apt-get);" \
       "the docs browser check will be skipped. Install the Debian package 'chromium' to run it." >&2
fi
exit 0
