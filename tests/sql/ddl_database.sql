-- Databases: CREATE [IF NOT EXISTS], SHOW, USE, DROP [IF EXISTS] [CASCADE], and their errors.
CREATE DATABASE sales;
CREATE DATABASE IF NOT EXISTS sales;
CREATE SCHEMA hr;
SHOW DATABASES;
CREATE DATABASE sales;
USE sales;
CREATE TABLE orders (id BIGINT, amount DECIMAL(10, 2));
SHOW TABLES;
SHOW TABLES IN hr;
USE missing_db;
DROP DATABASE sales;
DROP DATABASE sales CASCADE;
DROP DATABASE IF EXISTS sales;
DROP DATABASE sales;
SHOW DATABASES;
USE default;
SHOW TABLES;
-- Database properties: a file-system catalog keeps none (Java discards them) and refuses a
-- LOCATION and ALTER DATABASE, with Java's messages.
CREATE DATABASE props COMMENT 'kept by REST catalogs' WITH DBPROPERTIES ('owner' = 'me');
CREATE DATABASE placed LOCATION '/elsewhere';
ALTER DATABASE props SET DBPROPERTIES ('k' = 'v');
ALTER DATABASE nope SET DBPROPERTIES ('k' = 'v');
SHOW DATABASES;
