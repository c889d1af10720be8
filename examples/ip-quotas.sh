# connection_creation_rate quotas per source address, as kafka-configs.sh sets them.
# Kafka compares addresses, not text: the first quota applies to connections from ::1.
kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'connection_creation_rate=10' --entity-type ips --entity-name 0:0:0:0:0:0:0:1
kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'connection_creation_rate=5' --entity-type ips --entity-name 10.0.0.1
kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'connection_creation_rate=50' --entity-type ips --entity-default
