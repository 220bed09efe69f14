-- The name and password a Zotero client signs in with to get a key (Zotero desktop 7's `POST /keys`):
-- one a served user, the password kept only as a salted PBKDF2 hash (it is shown once, when made).
CREATE TABLE zotero_sign_in (
    user_number    BIGINT        NOT NULL,
    username       VARCHAR(255)  NOT NULL,
    password_hash  VARCHAR(255)  CHARACTER SET ascii NOT NULL,  -- pbkdf2-sha256$iterations$salt$hash (base64)
    PRIMARY KEY (user_number),
    UNIQUE KEY zotero_sign_in_name (username)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
