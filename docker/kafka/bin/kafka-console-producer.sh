#!/bin/sh
export KAFKA_HEAP_OPTS=-Xmx256m KAFKA_LOG4J=/opt/kafka/config/tools-log4j.properties
exec kafka-run-class.sh kafka.tools.ConsoleProducer "$@"
