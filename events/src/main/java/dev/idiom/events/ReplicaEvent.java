package dev.idiom.events;

/** An event about one copy of a DE in a tool: which tool, account and remote id it names. */
public interface ReplicaEvent {
    String tool();

    String account();

    String remoteId();
}
