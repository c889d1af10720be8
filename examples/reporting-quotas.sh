# users/<default> = 2 MB/s and clients/reporting = 10 MB/s: what to set so that
# client.id reporting gets 10 MB/s for every user? (kafka-quota advise answers.)
kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate=2000000 --entity-type users --entity-default
kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate=10000000 --entity-type clients --entity-name reporting
