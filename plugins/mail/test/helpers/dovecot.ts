/**
 * A real IMAP server for the connected-account tests: Debian's Dovecot (`dovecot-imapd`, which
 * `.ci/run` installs), started from a configuration of its own in a temporary directory —
 * plain IMAP on a free loopback port, users from a passwd-file, Maildir storage there. Dovecot
 * refuses to keep mail as root, so under root the whole server runs as a dedicated system user
 * (`wpk-dovecot`, created on first use); otherwise as the current user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@wpk/testing';

const BINARY = '/usr/sbin/dovecot';
const SYSTEM_USER = 'wpk-dovecot';

export interface Dovecot {
  host: string;
  port: number;
  /** Replaces the users file (Dovecot looks at it again at most once a second: this waits that second out). */
  setUsers(users: Array<{ user: string; password: string }>): Promise<void>;
  stop(): Promise<void>;
}

function runAs(): { name: string; uid: number; gid: number } {
  if (process.getuid?.() !== 0) {
    const info = os.userInfo();
    return { name: info.username, uid: info.uid, gid: info.gid };
  }
  try {
    execFileSync('id', ['-u', SYSTEM_USER], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SYSTEM_USER], { stdio: 'ignore' });
    } catch (error) {
      // Another run may have created it meanwhile; anything else is a real failure.
      execFileSync('id', ['-u', SYSTEM_USER], { stdio: 'ignore' });
      void error;
    }
  }
  return { name: SYSTEM_USER, uid: Number(execFileSync('id', ['-u', SYSTEM_USER]).toString().trim()), gid: Number(execFileSync('id', ['-g', SYSTEM_USER]).toString().trim()) };
}

async function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited with ${child.exitCode}: ${await fs.readFile(log, 'utf8').catch(() => '')}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`dovecot did not listen on ${port}: ${await fs.readFile(log, 'utf8').catch(() => '')}`);
}

export async function startDovecot(users: Array<{ user: string; password: string }>): Promise<Dovecot> {
  await fs.access(BINARY).catch(() => {
    throw new Error(`${BINARY} is missing: install Debian's dovecot-imapd (apt-get install -y dovecot-imapd; .ci/run does)`);
  });
  const owner = runAs();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpk-dovecot-'));
  const port = await freePort();
  const usersFile = path.join(dir, 'users');
  const log = path.join(dir, 'dovecot.log');
  for (const sub of ['mail', 'run', 'state']) await fs.mkdir(path.join(dir, sub));
  const config = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = wpk-test-${port}
log_path = ${log}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_login_user = ${owner.name}
default_internal_user = ${owner.name}
default_internal_group = ${owner.name === SYSTEM_USER ? SYSTEM_USER : os.userInfo().username}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${usersFile}
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/mail/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  # No growing delay after refused logins (the tests refuse some on purpose).
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
namespace inbox {
  inbox = yes
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
}
`;
  await fs.writeFile(path.join(dir, 'dovecot.conf'), config);
  const setUsers = async (list: Array<{ user: string; password: string }>) => {
    await fs.writeFile(usersFile, list.map((entry) => `${entry.user}:{PLAIN}${entry.password}::`).join('\n') + '\n');
    if (process.getuid?.() === 0) await fs.chown(usersFile, owner.uid, owner.gid);
    await new Promise((resolve) => setTimeout(resolve, 1100));
  };
  await setUsers(users);
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, dir]);
  const child = spawn(BINARY, ['-F', '-c', path.join(dir, 'dovecot.conf')], { uid: owner.uid, gid: owner.gid, stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } });
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    setUsers,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
