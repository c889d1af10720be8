# A runbook as operators keep them: kafka-configs.sh lines (comments allowed).
# The first four are the lab article's; the last sets a quota for the
# certificate user "app" that the SSL example of the README maps to.
kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=2000000,consumer_byte_rate=1000000 --entity-type users --entity-name tenantUserA
kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config request_percentage=50 --entity-type clients --entity-name reporting-job
kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=5000000 --entity-type users --entity-default
kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=500000 --entity-type users --entity-name tenantUserA --entity-type clients --entity-name batch-loader
kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=1000000 --entity-type users --entity-name app
