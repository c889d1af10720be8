#!/usr/bin/env bash
# A real Apache Kafka 4.3.1 KRaft cluster on loopback, for the lab and the
# tests that compare the engine with a broker: one controller (node 0) and
# three brokers (nodes 1, 2, 3), each its own JVM, from the Maven jars that
# lab/cluster/pom.xml resolves. docs/real-kafka.md, "The test cluster", says
# what runs where.
#
#   scripts/kafka-cluster.sh start      format fresh storage, make users, keys and
#                                       certificates, start, wait for the brokers
#   scripts/kafka-cluster.sh stop       stop every JVM of the cluster
#   scripts/kafka-cluster.sh status     running or not (exit 0 running, 3 stopped,
#                                       1 partly running)
#   scripts/kafka-cluster.sh env        KEY=VALUE lines for the harnesses
#   scripts/kafka-cluster.sh kafka-configs ARGS...   kafka.admin.ConfigCommand as admin
#   scripts/kafka-cluster.sh kafka-acls ARGS...      org.apache.kafka.tools.AclCommand as admin
#   scripts/kafka-cluster.sh kafka-topics ARGS...    org.apache.kafka.tools.TopicCommand as admin
#
# Environment:
#   KAFKA_CLUSTER_DIR        all state (default <repo>/target/real-kafka/cluster)
#   KAFKA_CLUSTER_PORT_BASE  ports are base+0 .. base+35 (default 29090)
#   KAFKA_CLUSTER_START_TIMEOUT  seconds start waits for the brokers (default 120)
#   KAFKA_CLUSTER_STOP_TIMEOUT   seconds stop waits after TERM before KILL (default 30)
#   KAFKA_CLUSTER_BROKER_SETTINGS  static broker settings for start, space-separated
#                            key=value words (values: letters, digits, . _ -), written
#                            after the defaults in every broker's properties, e.g.
#                            "quota.window.num=1" (scripts/lab.sh starts a cluster per
#                            set of settings its runs' scenarios name)
#   JAVA_HOME                java from there, else java on PATH
set -euo pipefail

readonly KAFKA_VERSION=4.3.1
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly repo
readonly lab="$repo/lab/cluster"

dir="${KAFKA_CLUSTER_DIR:-$repo/target/real-kafka/cluster}"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
dir="$(realpath -m "$dir")"
readonly dir
if [[ "$dir" == *,* ]]; then
  # log.dirs, under it, is a comma-separated list in Kafka.
  echo "kafka-cluster: KAFKA_CLUSTER_DIR must not contain a comma (Kafka's log.dirs is a comma-separated list): $dir" >&2
  exit 2
fi
readonly port_base="${KAFKA_CLUSTER_PORT_BASE:-29090}"
if ! [[ "$port_base" =~ ^[0-9]+$ ]] || ((port_base < 1024 || port_base > 65000)); then
  echo "kafka-cluster: KAFKA_CLUSTER_PORT_BASE must be a number from 1024 to 65000" >&2
  exit 2
fi
readonly start_timeout="${KAFKA_CLUSTER_START_TIMEOUT:-120}"
# KAFKA_CLUSTER_BROKER_SETTINGS, read by start only (parse_broker_settings).
broker_settings=()
readonly stop_timeout="${KAFKA_CLUSTER_STOP_TIMEOUT:-30}"
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  java="$JAVA_HOME/bin/java"
else
  java="$(command -v java || echo java)"
fi
readonly java
jcmd="$(dirname "$(readlink -f "$java" 2>/dev/null || echo "$java")")/jcmd"
[[ -x "$jcmd" ]] || jcmd=jcmd
readonly jcmd

readonly host=127.0.0.1
readonly controller_id=0
readonly broker_ids=(1 2 3)
readonly users=(tenant-a tenant-b tenant-c alice bob admin)
# Where things live under $dir.
readonly marker="$dir/.kafka-test-cluster"
readonly cp_file="$dir/classpath.txt"
readonly cp_args="$dir/classpath.args"
readonly conf_dir="$dir/config"
readonly data_dir="$dir/data"
readonly log_dir="$dir/logs"
readonly pid_dir="$dir/pids"
readonly tls_dir="$dir/tls"
readonly secrets_dir="$dir/secrets"
readonly clients_dir="$dir/clients"
readonly env_file="$dir/cluster.env"
# The one token on every cluster JVM's command line that says which cluster it is.
readonly jvm_tag="-Dkafka.test.cluster.dir=$dir"

# Ports: the controller at base+0; broker n at base+10n+1 .. base+10n+5.
controller_port() { echo $((port_base)); }
broker_port() { # broker_port ID KIND
  local off
  case "$2" in
    plaintext) off=1 ;; sasl) off=2 ;; ssl) off=3 ;; internal) off=4 ;; jmx) off=5 ;;
    *) echo "kafka-cluster: unknown port kind $2" >&2; exit 2 ;;
  esac
  echo $((port_base + 10 * $1 + off))
}
bootstrap() { # bootstrap KIND: host:port of every broker, comma-separated
  local id out=""
  for id in "${broker_ids[@]}"; do out+="${out:+,}$host:$(broker_port "$id" "$1")"; done
  echo "$out"
}

# The mapping rules the brokers apply to a client certificate's DN (RFC 2253,
# as X500Principal.getName() gives it): payments and ops certificates become
# their CN in lower case, any other keeps its whole DN.
# shellcheck disable=SC2016 # $1 is the rule's, not the shell's
readonly mapping_rules='RULE:^CN=([^,]+),OU=payments,.*$/$1/L,RULE:^CN=([^,]+),OU=ops,.*$/$1/L,DEFAULT'
# The certificate whose DN needs those rules.
readonly app_subject='/C=DE/O=Example Corp/OU=payments/CN=app-1'
readonly admin_subject='/C=DE/O=Example Corp/OU=ops/CN=admin'
# A subject as a person types it (spaces around separators, lower-case
# keywords), given to keytool as typed.
readonly typed_subject='cn = bob client, ou = eng, o = example'

say() { echo "kafka-cluster: $*"; }
die() { echo "kafka-cluster: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

node_name() { if [[ "$1" == "$controller_id" ]]; then echo "controller-$1"; else echo "broker-$1"; fi; }
all_nodes() { echo "$controller_id" "${broker_ids[@]}"; }

# The pid of a node if that pid is alive and is this cluster's JVM.
node_pid() {
  local f pid
  f="$pid_dir/$(node_name "$1").pid"
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  is_cluster_jvm "$pid" || return 1
  echo "$pid"
}
is_cluster_jvm() {
  grep -qzFx -- "$jvm_tag" "/proc/$1/cmdline" 2>/dev/null
}
# Every process whose command line carries this cluster's tag (pid files or not).
tagged_pids() {
  local f
  { grep -lzFx -- "$jvm_tag" /proc/[0-9]*/cmdline 2>/dev/null || true; } | while IFS= read -r f; do
    f="${f#/proc/}"
    echo "${f%/cmdline}"
  done
}

# --- classpath -------------------------------------------------------------

ensure_classpath() {
  local sum
  sum="$(sha256sum "$lab/pom.xml" | cut -d' ' -f1)"
  if [[ -s "$cp_file" && -f "$cp_file.sha256" && "$(cat "$cp_file.sha256")" == "$sum" ]] &&
    classpath_complete; then
    return 0
  fi
  mkdir -p "$dir"
  local tmp="$cp_file.tmp"
  if ! mvn -o -q -f "$lab/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >/dev/null 2>&1; then
    say "resolving the Kafka $KAFKA_VERSION jars with Maven (once per machine)"
    mvn -q -f "$lab/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >&2 ||
      die "mvn could not resolve lab/cluster/pom.xml"
  fi
  mv "$tmp" "$cp_file"
  echo "$sum" >"$cp_file.sha256"
  classpath_complete || die "the classpath in $cp_file names jars that are not there"
}
classpath_complete() {
  local jar
  while IFS= read -r -d: jar || [[ -n "$jar" ]]; do
    [[ -f "$jar" ]] || return 1
  done <"$cp_file"
}
# java's @argfile: keeps the 47-jar classpath off the command line.
write_cp_args() {
  printf -- '-cp "%s"\n' "$(cat "$cp_file")" >"$cp_args"
}
require_classpath() {
  if ! [[ -s "$cp_file" && -s "$cp_args" ]] || ! classpath_complete; then
    die "no cluster classpath in $dir: run scripts/kafka-cluster.sh start first"
  fi
}

# A short-lived Kafka tool on the cluster's classpath (C1 only, serial GC:
# they start faster on 2 cores); logging WARN and above to standard error,
# as bin/kafka-run-class.sh does with config/tools-log4j2.yaml.
run_tool() {
  "$java" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$lab/log4j2-tools.xml" "@$cp_args" "$@"
}

# --- secrets, keys and certificates -----------------------------------------

password() { openssl rand -hex 16; }

# Runs a command with its output in $log_dir/tls.log; on failure shows its tail.
quietly() {
  mkdir -p "$log_dir"
  if ! "$@" >>"$log_dir/tls.log" 2>&1; then
    tail -n 15 "$log_dir/tls.log" >&2
    die "failed: $1 (output in $log_dir/tls.log)"
  fi
}

make_secrets() {
  mkdir -p "$secrets_dir"
  chmod 700 "$secrets_dir"
  local u
  {
    for u in "${users[@]}" broker; do echo "$u=$(password)"; done
    echo "keystore=$(password)"
  } >"$secrets_dir/passwords.properties"
  chmod 600 "$secrets_dir/passwords.properties"
}
secret() { # secret NAME
  local v
  v="$(grep -m1 "^$1=" "$secrets_dir/passwords.properties" | cut -d= -f2-)"
  [[ -n "$v" ]] || die "no secret $1 in $secrets_dir"
  echo "$v"
}

make_tls() {
  mkdir -p "$tls_dir"
  chmod 700 "$tls_dir"
  local ks
  ks="$(secret keystore)"
  cat >"$tls_dir/openssl.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF
  (
    cd "$tls_dir"
    # keytool is a JVM: C1 and the serial GC start it sooner.
    local kt=(keytool -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC)
    # One certificate's subject is typed the way a person types it, which only
    # Java's parser (keytool -dname) takes as it is: its key and request are
    # made in the background while openssl makes the rest.
    (
      quietly "${kt[@]}" -genkeypair -alias bob-client -keyalg EC -groupname secp256r1 -validity 30 \
        -dname "$typed_subject" -keystore bob-client.gen.p12 -storetype PKCS12 \
        -storepass "$ks" -keypass "$ks"
      quietly "${kt[@]}" -certreq -alias bob-client -keystore bob-client.gen.p12 -storetype PKCS12 \
        -storepass "$ks" -file bob-client.csr
      quietly openssl pkcs12 -in bob-client.gen.p12 -passin "pass:$ks" -nocerts -nodes -out bob-client.bag.pem
      # keytool's PKCS#8 EC key leaves out the public key; `openssl ec`
      # puts it back (rustls's ring provider needs it, Java does not care).
      quietly openssl ec -in bob-client.bag.pem -out bob-client.sec1.pem
      quietly openssl pkcs8 -topk8 -nocrypt -in bob-client.sec1.pem -out bob-client.key.pem
      rm -f bob-client.gen.p12 bob-client.bag.pem bob-client.sec1.pem
    ) &
    local typed_job=$!
    # The CA. EC P-256 keys throughout: no RSA prime search on 2 cores.
    local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
    quietly openssl req -x509 -config openssl.cnf -extensions ca "${ec[@]}" \
      -keyout ca.key -out ca.pem -days 30 -subj "/O=Kafka Quota Playground/CN=test cluster CA"
    # A trust store Java reads as a trusted-certificate entry (openssl 3.0
    # cannot write that attribute; keytool can).
    quietly "${kt[@]}" -importcert -noprompt -alias test-cluster-ca -file ca.pem -keystore truststore.p12 \
      -storetype PKCS12 -storepass "$ks" &
    local trust_job=$!
    # The brokers' certificate (one for all three) and two client certificates.
    local name subj
    for name in broker app-1 admin; do
      case "$name" in
        broker) subj="/O=Kafka Quota Playground/CN=localhost" ;;
        app-1) subj="$app_subject" ;;
        admin) subj="$admin_subject" ;;
      esac
      quietly openssl req -new -config openssl.cnf "${ec[@]}" -keyout "$name.key.pem" \
        -out "$name.csr" -subj "$subj"
    done
    wait "$typed_job" || exit 1
    local ext serial=1000
    for name in broker app-1 admin bob-client; do
      ext=client
      [[ "$name" == broker ]] && ext=server
      serial=$((serial + 1))
      quietly openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -set_serial "$serial" -days 30 \
        -sha256 -extfile openssl.cnf -extensions "$ext" -out "$name.crt.pem"
      rm -f "$name.csr"
      # Kafka's PEM key store (ssl.keystore.type=PEM, one file): the unencrypted
      # PKCS#8 key, then the chain (DefaultSslEngineFactory.PemStore).
      cat "$name.key.pem" "$name.crt.pem" ca.pem >"$name.keystore.pem"
      quietly openssl pkcs12 -export -in "$name.crt.pem" -inkey "$name.key.pem" -certfile ca.pem \
        -name "$name" -passout "pass:$ks" -out "$name.p12"
    done
    wait "$trust_job" || exit 1
    chmod 600 ./*.key.pem ./*.keystore.pem ./*.p12 ca.key
  )
}
# A certificate's subject in RFC 2253 form: for these subjects (no character
# to escape) the string X500Principal.getName() gives; lab/cluster/smoke.sh
# checks it against Java and against the brokers' authorizer log.
rfc2253() { openssl x509 -in "$1" -noout -subject -nameopt RFC2253 | sed 's/^subject=//'; }

# --- configuration ------------------------------------------------------------

jaas_plain_internal() {
  local p
  p="$(secret broker)"
  printf 'org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="%s" user_broker="%s";' "$p" "$p"
}

write_common() { # the settings controller and brokers share
  local id=$1
  cat <<EOF
node.id=$id
controller.quorum.voters=$controller_id@$host:$(controller_port)
controller.listener.names=CONTROLLER
sasl.mechanism.controller.protocol=PLAIN
listener.name.controller.sasl.enabled.mechanisms=PLAIN
listener.name.controller.plain.sasl.jaas.config=$(jaas_plain_internal)
log.dirs=$data_dir/node-$id
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=true
super.users=User:admin;User:broker
EOF
}

write_configs() {
  mkdir -p "$conf_dir"
  chmod 700 "$conf_dir"
  local f="$conf_dir/controller-$controller_id.properties"
  {
    echo "# Kafka $KAFKA_VERSION test cluster: the controller (written by scripts/kafka-cluster.sh)"
    echo "process.roles=controller"
    write_common "$controller_id"
    echo "listeners=CONTROLLER://$host:$(controller_port)"
    echo "listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT"
  } >"$f"
  local id ks plain_users u
  ks="$(secret keystore)"
  plain_users=""
  for u in "${users[@]}"; do plain_users+=" user_$u=\"$(secret "$u")\""; done
  for id in "${broker_ids[@]}"; do
    f="$conf_dir/broker-$id.properties"
    local pl sa ss inn listeners
    pl="$(broker_port "$id" plaintext)"
    sa="$(broker_port "$id" sasl)"
    ss="$(broker_port "$id" ssl)"
    inn="$(broker_port "$id" internal)"
    listeners="PLAINTEXT://$host:$pl,SASL_PLAINTEXT://$host:$sa,SSL://$host:$ss,INTERNAL://$host:$inn"
    {
      echo "# Kafka $KAFKA_VERSION test cluster: broker $id (written by scripts/kafka-cluster.sh)"
      echo "process.roles=broker"
      write_common "$id"
      cat <<EOF
listeners=$listeners
advertised.listeners=$listeners
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,INTERNAL:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT
inter.broker.listener.name=INTERNAL
sasl.mechanism.inter.broker.protocol=PLAIN
listener.name.internal.sasl.enabled.mechanisms=PLAIN
listener.name.internal.plain.sasl.jaas.config=$(jaas_plain_internal)
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-512,SCRAM-SHA-256
listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-512,SCRAM-SHA-256
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required$plain_users;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
ssl.keystore.type=PKCS12
ssl.keystore.location=$tls_dir/broker.p12
ssl.keystore.password=$ks
ssl.key.password=$ks
ssl.truststore.type=PKCS12
ssl.truststore.location=$tls_dir/truststore.p12
ssl.truststore.password=$ks
ssl.client.auth=required
ssl.principal.mapping.rules=$mapping_rules
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=6
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
default.replication.factor=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
EOF
    } >"$f"
    if ((${#broker_settings[@]})); then
      local w
      for w in "${broker_settings[@]}"; do
        # The listeners, security, storage and ids are this script's: a
        # setting may add to them, not replace one.
        if cut -d= -f1 "$f" | grep -qxF "${w%%=*}"; then
          echo "kafka-cluster: KAFKA_CLUSTER_BROKER_SETTINGS: ${w%%=*} is one of the settings kafka-cluster.sh writes itself ($f); it cannot be replaced" >&2
          exit 2
        fi
      done
      {
        echo "# KAFKA_CLUSTER_BROKER_SETTINGS"
        printf '%s\n' "${broker_settings[@]}"
      } >>"$f"
    fi
  done
  chmod 600 "$conf_dir"/*.properties
}

write_client_configs() {
  mkdir -p "$clients_dir"
  chmod 700 "$clients_dir"
  local u ks
  ks="$(secret keystore)"
  printf 'bootstrap.servers=%s\nsecurity.protocol=PLAINTEXT\n' "$(bootstrap plaintext)" \
    >"$clients_dir/plaintext.properties"
  for u in "${users[@]}"; do
    cat >"$clients_dir/sasl-plain-$u.properties" <<EOF
bootstrap.servers=$(bootstrap sasl)
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$u" password="$(secret "$u")";
EOF
    # sasl-scram-U (SCRAM-SHA-512) and sasl-scram256-U (SCRAM-SHA-256).
    local suffix bits
    for suffix in "" 256; do
      bits="${suffix:-512}"
      cat >"$clients_dir/sasl-scram$suffix-$u.properties" <<EOF
bootstrap.servers=$(bootstrap sasl)
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-$bits
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$u" password="$(secret "$u")";
EOF
    done
  done
  cp "$clients_dir/sasl-scram-admin.properties" "$clients_dir/admin.properties"
  local name
  for name in app-1 bob-client admin; do
    cat >"$clients_dir/ssl-$name.properties" <<EOF
bootstrap.servers=$(bootstrap ssl)
security.protocol=SSL
ssl.truststore.type=PEM
ssl.truststore.location=$tls_dir/ca.pem
ssl.keystore.type=PEM
ssl.keystore.location=$tls_dir/$name.keystore.pem
EOF
    cat >"$clients_dir/ssl-$name-p12.properties" <<EOF
bootstrap.servers=$(bootstrap ssl)
security.protocol=SSL
ssl.truststore.type=PKCS12
ssl.truststore.location=$tls_dir/truststore.p12
ssl.truststore.password=$ks
ssl.keystore.type=PKCS12
ssl.keystore.location=$tls_dir/$name.p12
ssl.keystore.password=$ks
ssl.key.password=$ks
EOF
  done
  chmod 600 "$clients_dir"/*.properties
}

# Values with anything but [A-Za-z0-9_./:,=@+-] are single-quoted (none holds a
# single quote), so `source` and `set -a; . file` read them back unchanged.
kv() {
  if [[ "$2" =~ ^[A-Za-z0-9_./:,=@+-]*$ ]]; then
    printf '%s=%s\n' "$1" "$2"
  else
    printf "%s='%s'\n" "$1" "$2"
  fi
}

write_env() {
  local id ids
  ids="$(IFS=,; echo "${broker_ids[*]}")"
  {
    kv KAFKA_VERSION "$KAFKA_VERSION"
    kv KAFKA_CLUSTER_DIR "$dir"
    kv KAFKA_CLUSTER_PORT_BASE "$port_base"
    kv KAFKA_LOG_DIR "$log_dir"
    kv KAFKA_CLASSPATH_FILE "$cp_file"
    kv BROKER_IDS "$ids"
    kv CONTROLLER_ID "$controller_id"
    kv CONTROLLER_BOOTSTRAP "$host:$(controller_port)"
    kv PLAINTEXT_BOOTSTRAP "$(bootstrap plaintext)"
    kv PLAINTEXT_CONFIG "$clients_dir/plaintext.properties"
    kv SASL_PLAIN_BOOTSTRAP "$(bootstrap sasl)"
    kv SASL_PLAIN_CONFIG "$clients_dir/sasl-plain-tenant-a.properties"
    kv SASL_SCRAM_BOOTSTRAP "$(bootstrap sasl)"
    kv SASL_SCRAM_CONFIG "$clients_dir/sasl-scram-tenant-a.properties"
    kv SASL_SCRAM256_CONFIG "$clients_dir/sasl-scram256-tenant-a.properties"
    kv SASL_USERS "$(IFS=,; echo "${users[*]}")"
    kv SSL_BOOTSTRAP "$(bootstrap ssl)"
    kv SSL_CONFIG "$clients_dir/ssl-app-1.properties"
    kv SSL_P12_CONFIG "$clients_dir/ssl-app-1-p12.properties"
    kv SSL_DN "$(rfc2253 "$tls_dir/app-1.crt.pem")"
    kv SSL_PRINCIPAL "app-1"
    kv SSL_TYPED_CONFIG "$clients_dir/ssl-bob-client.properties"
    kv SSL_TYPED_P12_CONFIG "$clients_dir/ssl-bob-client-p12.properties"
    kv SSL_TYPED_SUBJECT "$typed_subject"
    kv SSL_TYPED_DN "$(rfc2253 "$tls_dir/bob-client.crt.pem")"
    kv SSL_TYPED_PRINCIPAL "$(rfc2253 "$tls_dir/bob-client.crt.pem")"
    kv SSL_ADMIN_CONFIG "$clients_dir/ssl-admin.properties"
    kv SSL_MAPPING_RULES "$mapping_rules"
    kv SSL_CA_PEM "$tls_dir/ca.pem"
    kv ADMIN_BOOTSTRAP "$(bootstrap sasl)"
    kv ADMIN_CONFIG "$clients_dir/admin.properties"
    kv CLIENT_CONFIG_DIR "$clients_dir"
    kv BROKER_SETTINGS "${broker_settings[*]+"${broker_settings[*]}"}"
    for id in "${broker_ids[@]}"; do
      kv "BROKER_${id}_JMX" "$host:$(broker_port "$id" jmx)"
    done
  } >"$env_file"
}

# --- start and stop --------------------------------------------------------------

port_in_use() { (exec 3<>"/dev/tcp/$host/$1") 2>/dev/null; }

check_ports_free() {
  local p busy=()
  local ports=("$(controller_port)")
  local id k
  for id in "${broker_ids[@]}"; do
    for k in plaintext sasl ssl internal jmx; do ports+=("$(broker_port "$id" "$k")"); done
  done
  for p in "${ports[@]}"; do
    if port_in_use "$p"; then busy+=("$p"); fi
  done
  ((${#busy[@]} == 0)) || die "ports in use on $host: ${busy[*]} (another cluster? set KAFKA_CLUSTER_PORT_BASE)"
}

new_cluster_id() {
  local cluster_id
  # A Kafka Uuid (base64url of 16 random bytes, not starting with '-'), as
  # `kafka-storage.sh random-uuid` prints one, without a JVM.
  while :; do
    cluster_id="$(openssl rand 16 | base64 | tr '+/' '-_' | tr -d '=')"
    [[ "$cluster_id" != -* ]] && break
  done
  echo "$cluster_id" >"$dir/cluster-id"
}

format_node() { # format_node ID: kafka-storage.sh format for one node
  local id=$1 name args log
  name="$(node_name "$id")"
  args="$secrets_dir/format-$name.args"
  log="$log_dir/format-$name.log"
  {
    echo "kafka.tools.StorageTool format --cluster-id $(cat "$dir/cluster-id")"
    echo "--config \"$conf_dir/$name.properties\""
    # The SCRAM-SHA-512 users go into the controller's bootstrap metadata
    # (KIP-900); their passwords stay in this java @argfile, off the command line.
    if [[ "$id" == "$controller_id" ]]; then
      local u
      for u in "${users[@]}"; do
        echo "--add-scram SCRAM-SHA-512=[name=$u,password=$(secret "$u")]"
        echo "--add-scram SCRAM-SHA-256=[name=$u,password=$(secret "$u")]"
      done
    fi
  } >"$args"
  chmod 600 "$args"
  if ! run_tool "@$args" >"$log" 2>&1; then
    echo "kafka-cluster: formatting $name failed:" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
}

launch() { # launch ID HEAP: one node's JVM, detached, with its pid file
  local id=$1 heap=$2 name conf nlog
  name="$(node_name "$id")"
  conf="$conf_dir/$name.properties"
  nlog="$log_dir/$name"
  mkdir -p "$nlog" "$pid_dir"
  # The JVM options of bin/kafka-run-class.sh (KAFKA_JVM_PERFORMANCE_OPTS, the
  # GC log of kafka-server-start.sh's -loggc) with small heaps.
  # shellcheck disable=SC2016 # $$ and $@ are the child's
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pid_dir/$name.pid" \
    "$java" "-Xms$heap" "-Xmx$heap" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    "-Xlog:gc*:file=$nlog/gc.log:time,tags:filecount=2,filesize=10M" \
    "-Djava.rmi.server.hostname=$host" "$jvm_tag" "-Dkafka.logs.dir=$nlog" "-Dlog4j2.configurationFile=$lab/log4j2-server.xml" \
    "@$cp_args" kafka.Kafka "$conf" >"$nlog/console.out" 2>&1 </dev/null &
  # Wait for the pid file (written before exec).
  local _
  for _ in $(seq 1 50); do
    [[ -s "$pid_dir/$name.pid" ]] && return 0
    sleep 0.05
  done
  die "$name did not start (no pid file)"
}

# JMX on a broker, on 127.0.0.1 only. Not with -Dcom.sun.management.jmxremote.port:
# that also starts the JDK's "local" connector (jdk.internal.agent.Agent.startAgent
# calls startLocalManagementAgent), an RMI server on a random port bound to
# every interface (LocalRMIServerSocketFactory: new ServerSocket(port)).
# `jcmd PID ManagementAgent.start` starts the remote connector alone
# (Agent.startRemoteManagementAgent), here bound to 127.0.0.1, registry and
# RMI objects on one port, no authentication, no TLS.
start_jmx() { # start_jmx ID
  local pid jp
  pid="$(node_pid "$1")" || return 1
  jp="$(broker_port "$1" jmx)"
  "$jcmd" "$pid" ManagementAgent.start "jmxremote.host=$host" "jmxremote.port=$jp" "jmxremote.rmi.port=$jp" \
    jmxremote.authenticate=false jmxremote.ssl=false jmxremote.registry.ssl=false \
    >>"$log_dir/broker-$1/jmx.log" 2>&1
}

show_failure() { # show_failure ID MESSAGE
  local name
  name="$(node_name "$1")"
  {
    echo "kafka-cluster: $2"
    echo "kafka-cluster: logs in $log_dir (this node: $log_dir/$name)"
    echo "--- tail of $log_dir/$name/server.log"
    tail -n 30 "$log_dir/$name/server.log" 2>/dev/null || echo "(no server.log)"
    if [[ -s "$log_dir/$name/console.out" ]]; then
      echo "--- tail of $log_dir/$name/console.out"
      tail -n 15 "$log_dir/$name/console.out"
    fi
  } >&2
}

start_failed=""
on_start_exit() {
  local rc=$1
  if ((rc != 0)) && [[ -z "$start_failed" ]]; then
    start_failed=1
    echo "kafka-cluster: start failed; logs in $log_dir; stopping what was started" >&2
    stop_cluster >&2 || true
  fi
}

# KAFKA_CLUSTER_BROKER_SETTINGS into broker_settings: key=value words
# separated by spaces or tabs, each checked.
parse_broker_settings() {
  local raw="${KAFKA_CLUSTER_BROKER_SETTINGS:-}" words w
  if [[ "$raw" == *$'\n'* ]]; then
    die "KAFKA_CLUSTER_BROKER_SETTINGS: one line of key=value words, separated by spaces"
  fi
  read -r -a words <<<"$raw"
  for w in "${words[@]+"${words[@]}"}"; do
    if ! [[ "$w" =~ ^[a-z][a-z0-9.]*=[A-Za-z0-9._-]+$ ]]; then
      echo "kafka-cluster: KAFKA_CLUSTER_BROKER_SETTINGS: \"$w\" is not key=value (a lower-case dotted key; a value of letters, digits, '.', '_' and '-')" >&2
      exit 2
    fi
    # The ids, roles, listeners, security and storage are this script's
    # (write_configs checks the rest of what it writes, exactly).
    case "${w%%=*}" in
      node.id | process.roles | controller.* | listeners | advertised.* | listener.* | inter.broker.* | \
        sasl.* | ssl.keystore.* | ssl.truststore.* | ssl.key.* | ssl.client.auth | security.* | \
        log.dir | log.dirs | metadata.log.dir | authorizer.* | allow.everyone.* | super.users)
        echo "kafka-cluster: KAFKA_CLUSTER_BROKER_SETTINGS: ${w%%=*} is one of the settings kafka-cluster.sh owns (ids, roles, listeners, security, storage); it cannot be replaced" >&2
        exit 2
        ;;
    esac
    broker_settings+=("$w")
  done
}

start_cluster() {
  local t0
  t0="$(now)"
  parse_broker_settings
  if [[ -n "$(tagged_pids)" ]]; then
    die "a cluster is already running in $dir: scripts/kafka-cluster.sh stop first"
  fi
  check_ports_free
  # A fresh cluster every time: only a directory this script made is emptied.
  if [[ -d "$dir" && ! -f "$marker" && -n "$(ls -A "$dir")" ]]; then
    die "$dir exists and is not a test cluster's directory; refusing to empty it"
  fi
  mkdir -p "$dir"
  find "$dir" -mindepth 1 -maxdepth 1 ! -name "$(basename "$cp_file")" \
    ! -name "$(basename "$cp_file").sha256" -exec rm -rf {} +
  touch "$marker"
  trap 'on_start_exit $?' EXIT
  ensure_classpath
  write_cp_args
  make_secrets
  write_configs
  write_client_configs
  # The storage is formatted, and the controller started, while openssl and
  # keytool make the keys: neither reads them.
  new_cluster_id
  mkdir -p "$log_dir"
  local id jobs=()
  (format_node "$controller_id" && launch "$controller_id" 256m) &
  jobs+=($!)
  for id in "${broker_ids[@]}"; do
    format_node "$id" &
    jobs+=($!)
  done
  make_tls
  write_env
  local t_prep
  t_prep="$(since "$t0")"
  local j failed=0
  for j in "${jobs[@]}"; do wait "$j" || failed=1; done
  ((failed == 0)) || die "formatting the storage or starting the controller failed (logs in $log_dir)"
  local t_format
  t_format="$(since "$t0")"
  for id in "${broker_ids[@]}"; do launch "$id" 512m; done
  # Ready: each broker logs KafkaBroker.STARTED_MESSAGE ("Kafka Server
  # started") once it is unfenced and every listener's acceptor is up
  # (BrokerServer.startup, 4.3.1).
  local deadline pending pid
  deadline=$(($(date +%s) + start_timeout))
  while :; do
    for id in $(all_nodes); do
      if ! pid="$(node_pid "$id")"; then
        show_failure "$id" "$(node_name "$id") exited during start"
        exit 1
      fi
    done
    pending=()
    for id in "${broker_ids[@]}"; do
      grep -qF "Kafka Server started" "$log_dir/broker-$id/server.log" 2>/dev/null || pending+=("$id")
    done
    ((${#pending[@]} == 0)) && break
    if (($(date +%s) >= deadline)); then
      show_failure "${pending[0]}" "broker ${pending[0]} did not start within ${start_timeout}s"
      exit 1
    fi
    sleep 0.2
  done
  local jpids=() failed=() i
  for id in "${broker_ids[@]}"; do
    start_jmx "$id" &
    jpids+=($!)
  done
  for i in "${!jpids[@]}"; do
    wait "${jpids[$i]}" || failed+=("${broker_ids[$i]}")
  done
  for id in "${broker_ids[@]}"; do
    port_in_use "$(broker_port "$id" jmx)" || failed+=("$id")
  done
  if ((${#failed[@]})); then
    show_failure "${failed[0]}" "JMX did not start on broker ${failed[0]} (see $log_dir/broker-${failed[0]}/jmx.log)"
    exit 1
  fi
  trap - EXIT
  say "started in $(since "$t0")s (keys and certificates made at ${t_prep}s, storage formatted and controller launched at ${t_format}s): controller $controller_id, brokers ${broker_ids[*]}; logs in $log_dir"
}

stop_cluster() {
  local t0 any=0 id pid
  t0="$(now)"
  # The brokers first (a controlled shutdown needs the controller), then the controller.
  local group
  for group in "${broker_ids[*]}" "$controller_id"; do
    local pids=()
    for id in $group; do
      if pid="$(node_pid "$id")"; then
        pids+=("$pid")
        kill -TERM "$pid" 2>/dev/null || true
      fi
    done
    ((${#pids[@]})) || continue
    any=1
    local deadline alive
    deadline=$(($(date +%s) + stop_timeout))
    while :; do
      alive=()
      for pid in "${pids[@]}"; do is_cluster_jvm "$pid" && alive+=("$pid"); done
      ((${#alive[@]} == 0)) && break
      if (($(date +%s) >= deadline)); then
        echo "kafka-cluster: still running after ${stop_timeout}s, killing: ${alive[*]}" >&2
        kill -KILL "${alive[@]}" 2>/dev/null || true
        sleep 0.5
        break
      fi
      sleep 0.1
    done
  done
  # Anything of this cluster without a pid file (a crashed start, a lost pid file).
  local strays
  strays="$(tagged_pids)"
  if [[ -n "$strays" ]]; then
    any=1
    echo "kafka-cluster: killing stray JVMs of this cluster: $(echo "$strays" | tr '\n' ' ')" >&2
    # shellcheck disable=SC2086
    kill -KILL $strays 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pid_dir"/*.pid 2>/dev/null || true
  strays="$(tagged_pids)"
  [[ -z "$strays" ]] || die "could not stop: $(echo "$strays" | tr '\n' ' ')"
  if ((any)); then
    say "stopped in $(since "$t0")s"
  else
    say "not running ($dir)"
  fi
}

status_cluster() {
  local id pid up=0 n=0
  for id in $(all_nodes); do
    n=$((n + 1))
    if pid="$(node_pid "$id")"; then
      up=$((up + 1))
      echo "$(node_name "$id"): running (pid $pid)"
    else
      echo "$(node_name "$id"): not running"
    fi
  done
  if ((up == n)); then
    say "running ($dir)"
    return 0
  elif ((up == 0)); then
    say "not running ($dir)"
    return 3
  fi
  say "partly running ($up of $n JVMs; $dir)"
  return 1
}

admin_tool() { # admin_tool CLASS ARGS...: a Kafka tool as the admin user over SASL/SCRAM
  [[ -f "$env_file" ]] || die "no cluster in $dir: run scripts/kafka-cluster.sh start first"
  require_classpath
  local cls=$1
  shift
  run_tool "$cls" --bootstrap-server "$(bootstrap sasl)" --command-config "$clients_dir/admin.properties" "$@"
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

cmd="${1:-}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  start) start_cluster ;;
  stop) stop_cluster ;;
  status) status_cluster ;;
  env)
    [[ -f "$env_file" ]] || die "no cluster in $dir: run scripts/kafka-cluster.sh start first"
    cat "$env_file"
    ;;
  kafka-configs) admin_tool kafka.admin.ConfigCommand "$@" ;;
  kafka-acls) admin_tool org.apache.kafka.tools.AclCommand "$@" ;;
  kafka-topics) admin_tool org.apache.kafka.tools.TopicCommand "$@" ;;
  -h | --help | help) usage ;;
  *)
    usage >&2
    exit 2
    ;;
esac
