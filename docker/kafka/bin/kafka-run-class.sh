#!/bin/sh
# Runs one of Kafka's classes on the image's jars: what the distribution's
# script of the same name does, in one line. The broker logs to stdout at
# INFO; the tools set KAFKA_LOG4J to their quieter configuration.
exec java ${KAFKA_HEAP_OPTS:-} -cp '/opt/kafka/libs/*' \
     -Dlog4j.configuration=file:${KAFKA_LOG4J:-/opt/kafka/config/log4j.properties} "$@"
