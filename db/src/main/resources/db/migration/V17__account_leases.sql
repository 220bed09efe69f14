-- One writer per tool account at a time, across every Idiom node on this database: a node holds
-- an account's lease (renewed while it works) for each sync, push batch, pull and check of it, so
-- no two of them read and rewrite the same file or library at once. `lease_key` is the account as
-- its replicas name it (kind and account); a lease past `until` is free (its node died).
CREATE TABLE account_lease (
    lease_key       VARCHAR(250)  NOT NULL,
    holder          VARCHAR(128)  NOT NULL,
    until           DATETIME(6)   NOT NULL,
    PRIMARY KEY (lease_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
