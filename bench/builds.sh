# Sourced by the drivers under bench/ that compare builds: resolves each --build NAME=REPO[,VAR=VALUE...]
# into NAMES, CLIS (the checkout's camcube.dll, built in Release here if missing), ENVS (the VAR=VALUE
# words for its cube's environment) and REPOS. Needs a log function; exits 2 on a malformed spec.
resolve_builds() { # spec...
  NAMES=(); CLIS=(); ENVS=(); REPOS=()
  local spec name repo extra cli
  for spec in "$@"; do
    name="${spec%%=*}"; repo="${spec#*=}"; extra=""
    [[ "$repo" == *,* ]] && { extra="${repo#*,}"; repo="${repo%%,*}"; }
    [[ "$name" != "$spec" && -d "$repo" ]] || { echo "--build takes NAME=REPO (an existing checkout): $spec" >&2; exit 2; }
    cli="$repo/src/Cli/CamCube.Cli/bin/Release/net10.0/camcube.dll"
    if [[ ! -f "$cli" ]]; then
      log "building the CLI of $name ($repo)"
      timeout 900 dotnet build "$repo/src/Cli/CamCube.Cli" -c Release -v q >/dev/null
    fi
    NAMES+=("$name"); CLIS+=("$cli"); ENVS+=("${extra//,/ }"); REPOS+=("$repo")
  done
}
