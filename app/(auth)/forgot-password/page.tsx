import type { Metadata } from 'next';
import { ForgotPasswordForm } from '@/components/account/password-reset-forms';

export const metadata: Metadata = { title: 'Reset your password' };

// GET /forgot-password: asks for a reset link by e-mail.
export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
