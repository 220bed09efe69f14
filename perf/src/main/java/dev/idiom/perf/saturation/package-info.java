/**
 * Saturation runs: {@code ./idiom perf} drives JMeter (perf/plans/saturation.jmx) through each
 * operation under a closed model (N clients) and an open model (arrivals stepped up at fixed
 * rates), reads the results, finds each operation's saturation point by a stated rule, fits the
 * Universal Scalability Law, and writes a report (summary.json, report.html with charts, JMeter's
 * own dashboard) under perf/reports/.
 */
package dev.idiom.perf.saturation;
